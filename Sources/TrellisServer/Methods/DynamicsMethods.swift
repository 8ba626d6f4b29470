import TrellisCore
import TrellisDynamics
import TrellisGeometry
import TrellisProtocol

/// dynamics.add, .update, .remove, .list, .item: UIKit Dynamics behaviours on a session's cells
/// and bodies (PROTOCOL.md, "Dynamics"); dynamics.setStepRate: how finely the animator steps. A
/// behaviour is decoded whole before anything changes, so a refused one leaves the session as it was.
enum DynamicsMethods {
    static let entries: [Method] = [
        Method("dynamics.add", .changesSession) { context throws(RPCError) in
            try context.allow(["session", "behavior"])
            let session = try context.sessionBroughtToNow()
            let spec: JSONValue
            do throws(ParamError) { spec = try BehaviorSpec.addedObject(context.params) } catch { throw .invalidParams(error) }
            let limit = context.server.configuration.maximumBehaviors
            guard session.collectionView.dynamicBehaviorCount < limit else {
                throw .domain("limit_exceeded", "session '\(session.name)' has \(limit) behaviours, the most this trellisd allows (--max-behaviors); remove some first (dynamics.remove), or gather items into one behaviour",
                              details: ["limit": .number(Double(limit))])
            }
            var resolver = session.collectionView.dynamicElementResolver()
            let behavior = try decode(spec, path: "params.behavior", &resolver)
            let (stored, linear, angular) = BehaviorSpec.actions(spec)
            let id = session.collectionView.addDynamicBehavior(behavior, spec: WireBehaviorSpec(stored), resolver: resolver)
            session.collectionView.addDynamicVelocity(linear: linear, angular: angular, to: behavior.items)
            return .object(["behavior": .number(Double(id.rawValue)), "items": elements(behavior.items, session)])
        },
        Method("dynamics.update", .changesSession) { context throws(RPCError) in
            let session = try context.sessionBroughtToNow()
            let id = try behaviorID(context)
            guard let (current, stored) = session.collectionView.dynamicBehavior(id) else {
                throw .from(EngineError.unknownBehavior(id.rawValue, known: session.collectionView.dynamicBehaviorIDs))
            }
            let merged: JSONValue
            do throws(ParamError) { merged = try BehaviorSpec.updated(BehaviorSpec.settled(WireBehaviorSpec.json(stored), current), by: context.params) } catch { throw .invalidParams(error) }
            // Items the behaviour names that were deleted since are skipped, not refused
            // (PROTOCOL.md, "Batch updates"): an update of another key keeps them.
            var resolver = session.collectionView.dynamicElementResolver(keeping: current.items)
            // What a behaviour keeps across updates (a field its clock) is its type's to say.
            let behavior = BehaviorSpec.continuing(try decode(merged, path: "params", &resolver), from: current)
            let (spec, linear, angular) = BehaviorSpec.actions(merged)
            do throws(EngineError) {
                try session.collectionView.updateDynamicBehavior(id, to: behavior, spec: WireBehaviorSpec(spec), resolver: resolver)
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
            try context.allow(["session", "limit", "offset"])
            let session = try context.sessionBroughtToNow()
            // Each list is a page: a behaviour may name every item of a million-item session.
            let limit: Int, offset: Int
            do throws(ParamError) {
                limit = try context.reader.int("limit", ParamRanges.queryLimit, default: ParamRanges.queryLimitDefault)
                offset = try context.reader.int("offset", 0...ParamRanges.elementIndexMaximum, default: 0)
            } catch { throw .invalidParams(error) }
            func page<T>(_ list: [T]) -> ArraySlice<T> {
                list[Swift.min(offset, list.count)..<Swift.min(list.count, offset + limit)]
            }
            let view = session.collectionView
            let allBehaviors = view.dynamicBehaviors, allItems = view.dynamicItems, allBodies = view.freeBodies
            let behaviors: [JSONValue] = page(allBehaviors).map { entry in
                let spec = WireBehaviorSpec.json(entry.spec)
                guard case .object(var o) = BehaviorSpec.settled(spec, entry.behavior) else { return spec }
                o["behavior"] = .number(Double(entry.id.rawValue))
                if let reason = view.dynamicBehaviorStopReason(entry.id) { o["stopped"] = .string(reason) }
                return .object(o)
            }
            var result: [String: JSONValue] = [
                "running": .bool(view.dynamicsRunning), "stepRate": .number(Double(view.dynamicsStepRate)),
                "behaviors": .array(behaviors),
                "items": elements(Array(page(allItems)), session),
                "bodies": .array(page(allBodies).map { .string($0.name) }),
            ]
            // Only a cut page says so, so a small session's reply is as it always was.
            let truncated = offset + limit < Swift.max(allBehaviors.count, allItems.count, allBodies.count)
            if truncated || offset > 0 {
                result["truncated"] = .bool(truncated)
                result["counts"] = .object(["behaviors": .number(Double(allBehaviors.count)), "items": .number(Double(allItems.count)),
                                            "bodies": .number(Double(allBodies.count))])
            }
            return .object(result)
        },
        Method("dynamics.setStepRate", .changesSession) { context throws(RPCError) in
            try context.allow(["session", "rate"])
            let session = try context.sessionBroughtToNow()
            // Read before anything changes: a refused rate leaves the session as it was.
            let rate = try context.stepRate("rate")
            let previous = session.collectionView.dynamicsStepRate
            session.collectionView.setDynamicsStepRate(rate)
            return .object(["stepRate": .number(Double(rate)), "previous": .number(Double(previous))])
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

    static func behaviorID(_ context: MethodContext) throws(RPCError) -> BehaviorID {
        do throws(ParamError) { return try BehaviorSpec.id(context.params) } catch { throw .invalidParams(error) }
    }

    static func elements(_ ids: [DynamicItemID], _ session: Session) -> JSONValue {
        .array(ids.compactMap { session.collectionView.dynamicElement(for: $0) }.map(\.wire))
    }

    static func pair(_ a: Double, _ b: Double) -> JSONValue { .array([.number(a), .number(b)]) }
}
