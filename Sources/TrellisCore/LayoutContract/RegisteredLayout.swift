/// A layout the protocol can name: its type name and its parameters, declared in the layout's
/// own file. Decoding, encoding, the CLI's options, replies and state snapshots all go through
/// these declarations (`LayoutRegistry`), so adding a layout is its file plus one registry line.
public protocol RegisteredLayout: Layout {
    /// The protocol's name for it ("flow", "circle").
    static var typeName: String { get }
    /// Every parameter, with its kind and range; its default is what `init()` holds.
    static var parameters: [LayoutParameter<Self>] { get }
    /// The layout with every parameter at its default.
    init()
    /// Checked after every parameter is set: a problem between parameters (a rule naming a
    /// section that is not there), as the key it concerns, what was expected and what was
    /// found; nil when there is none (the default).
    func parameterConflict() -> ParameterConflict?
}

/// A problem between a layout's parameters, found after all are set.
public struct ParameterConflict: Hashable, Sendable {
    /// The key path below the layout object, such as `provider.map.news`.
    public var path: String
    public var expected: String
    public var found: String

    public init(path: String, expected: String, found: String) { self.path = path; self.expected = expected; self.found = found }
}

extension RegisteredLayout {
    public var typeName: String { Self.typeName }
    public func parameterConflict() -> ParameterConflict? { nil }

    /// The parameters without their accessors.
    public static var parameterDescriptions: [ParameterDescription] { parameters.map(\.description) }
}

/// Every layout the protocol can name, one line each.
public enum LayoutRegistry {
    public static var all: [any RegisteredLayout.Type] {
        [FlowLayout.self, CircleLayout.self, LineLayout.self, CoverFlowLayout.self, StackLayout.self, CarouselLayout.self,
         SpringyFlowLayout.self, CompositionalLayout.self]
    }

    /// The protocol's layout names, in registry order.
    public static var names: [String] { all.map { $0.typeName } }

    /// The layout type the protocol calls `name`.
    public static func type(named name: String) -> (any RegisteredLayout.Type)? { all.first { $0.typeName == name } }
}
