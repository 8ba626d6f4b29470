/// One parameter of a layout as the protocol, the CLI, `query` replies and state snapshots see
/// it: its name, what kind of value it takes and in what range, and how to read and write it on
/// the layout. Declared by each layout in its own file (`RegisteredLayout.parameters`).
public struct LayoutParameter<Root> {
    public let description: ParameterDescription
    /// The value on `root`; nil when an optional parameter is unset.
    public let get: (Root) -> ParameterValue?
    /// Sets a value already checked against `description.kind`.
    public let set: (inout Root, ParameterValue) -> Void

    public init(_ description: ParameterDescription, get: @escaping (Root) -> ParameterValue?,
                set: @escaping (inout Root, ParameterValue) -> Void) {
        self.description = description
        self.get = get
        self.set = set
    }
}

/// A parameter without its layout: what documentation, decoding and the CLI need.
public struct ParameterDescription: Sendable {
    public var name: String
    public var kind: ParameterKind
    /// One line for people: what it does, its default and where that comes from.
    public var summary: String

    public init(_ name: String, _ kind: ParameterKind, _ summary: String) {
        self.name = name; self.kind = kind; self.summary = summary
    }
}

/// What values a parameter takes. Every number is finite and inside its range.
public indirect enum ParameterKind: Sendable {
    /// A number in the range.
    case number(ClosedRange<Double>)
    /// `[width, height]`, each in the range; `positive` excludes zero.
    case size(ClosedRange<Double>, positive: Bool)
    /// `[x, y]`, each in the range (either sign).
    case point(ClosedRange<Double>)
    /// `[top, left, bottom, right]`, each in the range.
    case insets(ClosedRange<Double>)
    case bool
    /// One of the names.
    case choice([String])
    /// Values per section index (`{"0": {…}, "3": {…}}`), each with these parameters.
    case perSection([ParameterDescription])
    /// A compositional layout's section descriptions (a tree; see `CompositionalSection`).
    case compositionalSections
    /// A compositional layout's section provider rule.
    case compositionalRule
    /// A compositional list preset (`CompositionalListConfiguration`).
    case compositionalList
}

/// A parameter's value.
public enum ParameterValue: Hashable, Sendable {
    case number(Double)
    case size(Size)
    case point(Point)
    case insets(EdgeInsets)
    case bool(Bool)
    case choice(String)
    /// Per section index, the values set for it, by parameter name.
    case sections([Int: [String: ParameterValue]])
    case compositionalSections([CompositionalSection])
    case compositionalRule(CompositionalSectionRule)
    case compositionalList(CompositionalListConfiguration)
}

/// Lengths in points a layout accepts: wide enough for any screen or content, and far from
/// where sums of them could overflow.
public let layoutLengthLimit = 1_000_000.0

extension LayoutParameter {
    /// A number at `keyPath`.
    public static func number(_ name: String, _ keyPath: WritableKeyPath<Root, Double>, _ range: ClosedRange<Double>,
                              _ summary: String) -> LayoutParameter {
        LayoutParameter(ParameterDescription(name, .number(range), summary),
                        get: { .number($0[keyPath: keyPath]) },
                        set: { if case .number(let v) = $1 { $0[keyPath: keyPath] = v } })
    }

    /// An optional number at `keyPath` (left out when nil).
    public static func number(_ name: String, _ keyPath: WritableKeyPath<Root, Double?>, _ range: ClosedRange<Double>,
                              _ summary: String) -> LayoutParameter {
        LayoutParameter(ParameterDescription(name, .number(range), summary),
                        get: { $0[keyPath: keyPath].map(ParameterValue.number) },
                        set: { if case .number(let v) = $1 { $0[keyPath: keyPath] = v } })
    }

    /// A size at `keyPath`.
    public static func size(_ name: String, _ keyPath: WritableKeyPath<Root, Size>, positive: Bool,
                            _ summary: String) -> LayoutParameter {
        LayoutParameter(ParameterDescription(name, .size(0...layoutLengthLimit, positive: positive), summary),
                        get: { .size($0[keyPath: keyPath]) },
                        set: { if case .size(let v) = $1 { $0[keyPath: keyPath] = v } })
    }

    /// An optional size at `keyPath`.
    public static func size(_ name: String, _ keyPath: WritableKeyPath<Root, Size?>, positive: Bool,
                            _ summary: String) -> LayoutParameter {
        LayoutParameter(ParameterDescription(name, .size(0...layoutLengthLimit, positive: positive), summary),
                        get: { $0[keyPath: keyPath].map(ParameterValue.size) },
                        set: { if case .size(let v) = $1 { $0[keyPath: keyPath] = v } })
    }

    /// A point (an offset of either sign) at `keyPath`.
    public static func point(_ name: String, _ keyPath: WritableKeyPath<Root, Point>, _ summary: String) -> LayoutParameter {
        LayoutParameter(ParameterDescription(name, .point(-layoutLengthLimit...layoutLengthLimit), summary),
                        get: { .point($0[keyPath: keyPath]) },
                        set: { if case .point(let v) = $1 { $0[keyPath: keyPath] = v } })
    }

    /// Insets at `keyPath`.
    public static func insets(_ name: String, _ keyPath: WritableKeyPath<Root, EdgeInsets>, _ summary: String) -> LayoutParameter {
        LayoutParameter(ParameterDescription(name, .insets(-layoutLengthLimit...layoutLengthLimit), summary),
                        get: { .insets($0[keyPath: keyPath]) },
                        set: { if case .insets(let v) = $1 { $0[keyPath: keyPath] = v } })
    }

    /// Optional insets at `keyPath`.
    public static func insets(_ name: String, _ keyPath: WritableKeyPath<Root, EdgeInsets?>, _ summary: String) -> LayoutParameter {
        LayoutParameter(ParameterDescription(name, .insets(-layoutLengthLimit...layoutLengthLimit), summary),
                        get: { $0[keyPath: keyPath].map(ParameterValue.insets) },
                        set: { if case .insets(let v) = $1 { $0[keyPath: keyPath] = v } })
    }

    /// A flag at `keyPath`.
    public static func bool(_ name: String, _ keyPath: WritableKeyPath<Root, Bool>, _ summary: String) -> LayoutParameter {
        LayoutParameter(ParameterDescription(name, .bool, summary),
                        get: { .bool($0[keyPath: keyPath]) },
                        set: { if case .bool(let v) = $1 { $0[keyPath: keyPath] = v } })
    }

    /// An optional flag at `keyPath` (left out when nil).
    public static func bool(_ name: String, _ keyPath: WritableKeyPath<Root, Bool?>, _ summary: String) -> LayoutParameter {
        LayoutParameter(ParameterDescription(name, .bool, summary),
                        get: { $0[keyPath: keyPath].map(ParameterValue.bool) },
                        set: { if case .bool(let v) = $1 { $0[keyPath: keyPath] = v } })
    }

    /// One of the raw values of a `RawRepresentable` at `keyPath`.
    public static func choice<Value: RawRepresentable & CaseIterable>(_ name: String, _ keyPath: WritableKeyPath<Root, Value>,
                                                                      _ summary: String) -> LayoutParameter where Value.RawValue == String {
        LayoutParameter(ParameterDescription(name, .choice(Value.allCases.map(\.rawValue)), summary),
                        get: { .choice($0[keyPath: keyPath].rawValue) },
                        set: { if case .choice(let v) = $1, let value = Value(rawValue: v) { $0[keyPath: keyPath] = value } })
    }

    /// Values per section at `keyPath`, each section's made from `empty` with `parameters` set.
    public static func perSection<Section>(_ name: String, _ keyPath: WritableKeyPath<Root, [Int: Section]>, empty: Section,
                                           _ parameters: [LayoutParameter<Section>], _ summary: String) -> LayoutParameter {
        LayoutParameter(ParameterDescription(name, .perSection(parameters.map(\.description)), summary),
                        get: { root in
                            let sections = root[keyPath: keyPath]
                            guard !sections.isEmpty else { return nil }
                            return .sections(sections.mapValues { section in
                                var values: [String: ParameterValue] = [:]
                                for p in parameters { values[p.description.name] = p.get(section) }
                                return values
                            })
                        },
                        set: { root, value in
                            guard case .sections(let given) = value else { return }
                            root[keyPath: keyPath] = given.mapValues { values in
                                var section = empty
                                for p in parameters { if let v = values[p.description.name] { p.set(&section, v) } }
                                return section
                            }
                        })
    }
}
