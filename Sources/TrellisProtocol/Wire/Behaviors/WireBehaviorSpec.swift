import TrellisCore
import TrellisDynamics

/// A behaviour's settings as a request gave them: its wire object (`type` and the keys given,
/// without the actions that acted once), what `dynamics.list` reports, `dynamics.update`
/// merges into, and snapshots keep. The engine holds it as a `DynamicBehaviorSpec`.
public struct WireBehaviorSpec: DynamicBehaviorSpec, Hashable {
    /// The behaviour object, `{"type": …, …}`.
    public var object: JSONValue

    public init(_ object: JSONValue) { self.object = object }

    public var typeName: String { object.field("type")?.stringValue ?? "" }

    /// The wire object of a spec the engine holds (null for a spec that did not come from the wire).
    public static func json(_ spec: any DynamicBehaviorSpec) -> JSONValue {
        (spec as? WireBehaviorSpec)?.object ?? .null
    }
}
