/// A behaviour's settings as its client gave them, kept beside the behaviour so that listings
/// and snapshots can say what was asked for (not what the solver derived). The engine only
/// stores it; its form is the protocol's (TrellisProtocol's `WireBehaviorSpec`), so no wire
/// JSON reaches the engine.
public protocol DynamicBehaviorSpec: Sendable {
    /// The protocol's name for the behaviour's type ("gravity").
    var typeName: String { get }
}
