import TrellisCore
import TrellisDynamics
import TrellisGeometry

/// A behaviour the protocol can name, declared in its own file: its type name, its keys, the
/// CLI options that set them, how its object decodes, and what it changes of its own wire form
/// while it runs. Decoding, `dynamics.list`, snapshots, the CLI's options and the schema test
/// all go through these declarations (`BehaviorRegistry`), as layouts go through
/// `RegisteredLayout`: adding a behaviour is its file plus one registry line.
public protocol RegisteredBehavior: DynamicBehavior {
    /// The protocol's name for it ("gravity", "field").
    static var typeName: String { get }
    /// The keys its object takes besides `type`.
    static var keys: [String] { get }
    /// The CLI options that set its keys (`trellis dynamics add TYPE --option VALUE`).
    static var options: [BehaviorOption] { get }
    /// The behaviour `reader`'s object describes (its keys already checked against `keys`),
    /// naming elements through `resolver`.
    static func decode(_ reader: SpecReader, _ resolver: inout DynamicElementResolver) throws(BehaviorSpecError) -> Self
    /// Takes the keys that act once when a request is applied out of `members` (they are not
    /// lasting settings): the velocities they add.
    static func takeActions(_ members: inout [String: JSONValue]) -> (linear: Vector, angular: Double)
    /// Writes what the behaviour settled or changed by itself since it was decoded (an
    /// attachment's length, a push that fired) into its wire object.
    func settle(_ members: inout [String: JSONValue])
    /// This behaviour, decoded for an update of `old`, with the state it keeps across updates.
    func continuing(_ old: any DynamicBehavior) -> Self
}

extension RegisteredBehavior {
    public static func takeActions(_ members: inout [String: JSONValue]) -> (linear: Vector, angular: Double) { (.zero, 0) }
    public func settle(_ members: inout [String: JSONValue]) {}
    public func continuing(_ old: any DynamicBehavior) -> Self { self }
}

/// Every behaviour the protocol can name, one line each, in the documented order.
public enum BehaviorRegistry {
    public static var all: [any RegisteredBehavior.Type] {
        [GravityBehavior.self, CollisionBehavior.self, AttachmentBehavior.self, SnapBehavior.self, PushBehavior.self,
         ItemBehavior.self, FieldBehavior.self, CompositeBehavior.self]
    }

    /// The protocol's behaviour names, in registry order.
    public static var names: [String] { all.map { $0.typeName } }

    /// The behaviour type the protocol calls `name`.
    public static func type(named name: String) -> (any RegisteredBehavior.Type)? { all.first { $0.typeName == name } }
}
