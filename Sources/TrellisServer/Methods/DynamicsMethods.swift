import TrellisCore
import TrellisDynamics
import TrellisGeometry
import TrellisProtocol

/// dynamics.add, .update, .remove, .list, .item: UIKit Dynamics behaviours on a session's cells
/// and bodies (PROTOCOL.md, "Dynamics"). A behaviour is decoded whole before anything changes,
/// so a refused one leaves the session as it was.
enum DynamicsMethods {
    static let entries: [Method] = [
        Method("dynamics.add", .changesSession) { context throws(RPCError) in
            try context.allow(["session", "behavior"])
            let session = try context.sessionBroughtToNow()
            guard let spec = context.params.field("behavior"), spec != .null else {
                throw .invalidParams(ParamError(path: "params.behavior", .missing(expected: "a behaviour object {\"type\": \(BehaviorSpec.typeNames.joined(separator: " | ")), …}")))
            }
            if let path = nullPath(spec, path: "params.behavior") {
                throw .invalidParams("\(path): expected a value, found null (null only removes a key in dynamics.update; leave the key out for its default)")
            }
            let limit = context.server.configuration.maximumBehaviors
            guard session.collectionView.dynamicBehaviorCount < limit else {
                throw .domain("limit_exceeded", "session '\(session.name)' has \(limit) behaviours, the most this trellisd allows (--max-behaviors); remove some first (dynamics.remove), or gather items into one behaviour",
                              details: ["limit": .number(Double(limit))])
            }
            var resolver = session.collectionView.dynamicElementResolver()
            let behavior = try decode(spec, path: "params.behavior", &resolver)
            let (stored, linear, angular) = BehaviorSpec.actions(spec)
            let id = session.collectionView.addDynamicBehavior(behavior, spec: stored, resolver: resolver)
            session.collectionView.addDynamicVelocity(linear: linear, angular: angular, to: behavior.items)
            return .object(["behavior": .number(Double(id.rawValue)), "items": elements(behavior.items, session)])
        },
        Method("dynamics.update", .changesSession) { context throws(RPCError) in
            let session = try context.sessionBroughtToNow()
            let id = try behaviorID(context)
            guard let (current, stored) = session.collectionView.dynamicBehavior(id) else {
                throw .from(EngineError.unknownBehavior(id.rawValue, known: session.collectionView.dynamicBehaviorIDs))
            }
            guard case .object(var merged) = BehaviorSpec.settled(stored, current), case .object(let changes) = context.params else {
                throw .invalidParams("params: expected an object")
            }
            for (key, value) in changes where key != "session" && key != "behavior" {
                if key == "type", value != merged["type"] {
                    throw .invalidParams("params.type: a behaviour's type cannot change (it is \(JSONWriter.string(merged["type"] ?? .null))): remove it and add a new one")
                }
                // null removes a key (back to its default, or to switch a direction's spelling).
                merged[key] = value == .null ? nil : value
            }
            // Items the behaviour names that were deleted since are skipped, not refused
            // (PROTOCOL.md, "Batch updates"): an update of another key keeps them.
            var resolver = session.collectionView.dynamicElementResolver(keeping: current.items)
            // What a behaviour keeps across updates (a field its clock) is its type's to say.
            let behavior = BehaviorSpec.continuing(try decode(.object(merged), path: "params", &resolver), from: current)
            let (spec, linear, angular) = BehaviorSpec.actions(.object(merged))
            do throws(EngineError) {
                try session.collectionView.updateDynamicBehavior(id, to: behavior, spec: spec, resolver: resolver)
            } catch { throw .from(error) }
            session.collectionView.addDynamicVelocity(linear: linear, angular: angular, to: behavior.items)
            return .object(["behavior": .number(Double(id.rawValue)), "items": elements(behavior.items, session)])
        },
        Method("dynamics.remove", .changesSession) { context throws(RPCError) in
            try context.allow(["session", "behavior"])
            let session = try context.sessionBroughtToNow()
            let id = try behaviorID(context)
            let released: [DynamicElement]
            do throws(EngineError) { released = try session.collectionView.removeDynamicBehavior(id) } catch { throw .from(error) }
            return .object(["removed": .number(Double(id.rawValue)), "released": .array(released.map(\.wire))])
        },
        Method("dynamics.list", .reads) { context throws(RPCError) in
            try context.allow(["session"])
            let session = try context.sessionBroughtToNow()
            let view = session.collectionView
            let behaviors: [JSONValue] = view.dynamicBehaviors.map { entry in
                guard case .object(var o) = BehaviorSpec.settled(entry.spec, entry.behavior) else { return entry.spec }
                o["behavior"] = .number(Double(entry.id.rawValue))
                if let reason = view.dynamicBehaviorStopReason(entry.id) { o["stopped"] = .string(reason) }
                return .object(o)
            }
            return .object(["running": .bool(view.dynamicsRunning), "behaviors": .array(behaviors),
                            "items": elements(view.dynamicItems, session),
                            "bodies": .array(view.freeBodies.map { .string($0.name) })])
        },
        Method("dynamics.item", .reads) { context throws(RPCError) in
            try context.allow(["session", "element"])
            let session = try context.sessionBroughtToNow()
            guard let value = context.params.field("element"), value != .null else {
                throw .invalidParams(ParamError(path: "params.element", .missing(expected: "an element: an item id, {\"item\": ID} or {\"body\": NAME}")))
            }
            let element: DynamicElement
            do throws(ParamError) { element = try DynamicElement.decode(value, path: "params.element") } catch { throw .invalidParams(error) }
            let state: DynamicItemState
            do throws(EngineError) { state = try session.collectionView.dynamicState(of: element) } catch { throw .from(error) }
            return .object([
                "element": element.wire, "dynamic": .bool(state.isDynamic),
                "center": pair(state.center.x, state.center.y), "size": pair(state.size.width, state.size.height),
                "angle": .number(state.angle), "velocity": pair(state.velocity.dx, state.velocity.dy),
                "angularVelocity": .number(state.angularVelocity),
            ])
        },
    ]

    static func decode(_ spec: JSONValue, path: String, _ resolver: inout DynamicElementResolver) throws(RPCError) -> any DynamicBehavior {
        do throws(BehaviorSpecError) {
            return try BehaviorSpec.decode(spec, path: path, resolver: &resolver)
        } catch {
            switch error {
            case .params(let p): throw .invalidParams(p)
            case .engine(let e): throw .from(e)
            }
        }
    }

    /// The key path of the first null inside `value`, if any.
    static func nullPath(_ value: JSONValue, path: String) -> String? {
        switch value {
        case .null: return path
        case .object(let members):
            for key in members.keys.sorted() {
                if let found = nullPath(members[key]!, path: "\(path).\(key)") { return found }
            }
        case .array(let elements):
            for (k, element) in elements.enumerated() {
                if let found = nullPath(element, path: "\(path)[\(k)]") { return found }
            }
        default: break
        }
        return nil
    }

    static func behaviorID(_ context: MethodContext) throws(RPCError) -> BehaviorID {
        let n = try context.number("behavior")
        guard n == n.rounded(), n >= 1, n < 1e15 else {
            throw .invalidParams("params.behavior: expected a behaviour id (a whole number from 1, as dynamics.add returned it), found \(n)")
        }
        return BehaviorID(Int(n))
    }

    static func elements(_ ids: [DynamicItemID], _ session: Session) -> JSONValue {
        .array(ids.compactMap { session.collectionView.dynamicElement(for: $0) }.map(\.wire))
    }

    static func pair(_ a: Double, _ b: Double) -> JSONValue { .array([.number(a), .number(b)]) }
}
