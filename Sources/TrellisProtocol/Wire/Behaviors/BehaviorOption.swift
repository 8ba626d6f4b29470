import TrellisCore

/// A CLI option of `trellis dynamics add|update`, declared by the behaviour whose key it sets:
/// the same option may set different keys of different types (`--direction` is gravity's
/// `gravityDirection` but push's `pushDirection`).
public struct BehaviorOption: Sendable {
    /// The shape an option's text must have.
    public enum Kind: Sendable {
        case number, point, vector, insets, element, bool, pair
        /// One of the protocol's names.
        case choice([String])
        /// An option without a value: sets this.
        case flag(JSONValue)
        /// Appended to the key's array (a repeated option).
        case boundary
        case region
    }

    /// The option's name without `--` ("direction").
    public var name: String
    /// The protocol key it sets ("gravityDirection").
    public var key: String
    public var kind: Kind

    public init(_ name: String, _ key: String, _ kind: Kind) {
        self.name = name
        self.key = key
        self.kind = kind
    }

    /// A number option whose name is the key in kebab case.
    public static func number(_ name: String, _ key: String) -> BehaviorOption { BehaviorOption(name, key, .number) }
}
