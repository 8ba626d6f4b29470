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
}

extension RegisteredLayout {
    public var typeName: String { Self.typeName }

    /// The parameters without their accessors.
    public static var parameterDescriptions: [ParameterDescription] { parameters.map(\.description) }
}

/// Every layout the protocol can name, one line each.
public enum LayoutRegistry {
    public static var all: [any RegisteredLayout.Type] {
        [FlowLayout.self, CircleLayout.self, LineLayout.self, CoverFlowLayout.self, StackLayout.self, CarouselLayout.self,
         SpringyFlowLayout.self]
    }

    /// The protocol's layout names, in registry order.
    public static var names: [String] { all.map { $0.typeName } }

    /// The layout type the protocol calls `name`.
    public static func type(named name: String) -> (any RegisteredLayout.Type)? { all.first { $0.typeName == name } }
}
