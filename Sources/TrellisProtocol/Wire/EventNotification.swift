import TrellisCore

/// The notification an engine event becomes (PROTOCOL.md, "Notifications"): its method and
/// params, or nil for events that reach a client another way (a tap's selection steps are in
/// its reply).
public enum EventNotification {
    /// `time` is the session's engine time in seconds (dynamics.paused carries it).
    public static func message(_ event: EngineEvent, session: String, time: Double) -> (method: String, params: JSONValue)? {
        let name: JSONValue = .string(session)
        switch event {
        case .selection: return nil   // the caller of gesture.tap gets these in its reply
        case .selectionChanged(let selected):
            return ("selection.changed", .object(["session": name, "selected": .array(selected.map { .string($0.rawValue) })]))
        case .updateCompleted(let update, let finished):
            return ("update.completed", .object(["session": name, "update": .number(Double(update)), "finished": .bool(finished)]))
        case .transitionCompleted(let transition, let finished, let installed):
            return ("transition.completed", .object(["session": name, "transition": .number(Double(transition)),
                                                     "finished": .bool(finished), "installed": .bool(installed)]))
        case .scrollCompleted(let scroll, let finished):
            return ("scroll.completed", .object(["session": name, "scroll": .number(Double(scroll)), "finished": .bool(finished)]))
        case .dynamicsCollision(let c):
            var o: [String: JSONValue] = ["session": name, "behavior": .number(Double(c.behavior)),
                                          "phase": .string(c.began ? "began" : "ended"),
                                          "items": .array(c.elements.map(\.wire))]
            if c.withBoundary { o["boundary"] = c.boundary.map(JSONValue.string) ?? .null }
            if let p = c.point { o["point"] = .array([.number(p.x), .number(p.y)]) }
            return ("dynamics.collision", .object(o))
        case .scrollWillBeginDragging(let offset):
            return ("scroll.willBeginDragging", .object(["session": name, "contentOffset": WireEncoding.pair(offset)]))
        case .scrollWillEndDragging(let velocity, let target):
            return ("scroll.willEndDragging", .object(["session": name, "velocity": WireEncoding.pair(velocity),
                                                       "targetContentOffset": WireEncoding.pair(target)]))
        case .scrollDidEndDragging(let decelerate):
            return ("scroll.didEndDragging", .object(["session": name, "decelerate": .bool(decelerate)]))
        case .scrollDidEndDecelerating(let offset):
            return ("scroll.didEndDecelerating", .object(["session": name, "contentOffset": WireEncoding.pair(offset)]))
        case .scrollDidScroll(let offset):
            return ("scroll.didScroll", .object(["session": name, "contentOffset": WireEncoding.pair(offset)]))
        case .bandScroll(let e):
            var o: [String: JSONValue] = ["session": name, "section": .number(Double(e.section)), "id": .string(e.id.rawValue)]
            let method: String
            switch e.kind {
            case .willBeginDragging(let offset): method = "willBeginDragging"; o["offset"] = .number(offset)
            case .willEndDragging(let velocity, let target):
                method = "willEndDragging"; o["velocity"] = .number(velocity); o["targetOffset"] = .number(target)
            case .didEndDragging(let decelerate): method = "didEndDragging"; o["decelerate"] = .bool(decelerate)
            case .didEndDecelerating(let offset): method = "didEndDecelerating"; o["offset"] = .number(offset)
            case .didScroll(let offset): method = "didScroll"; o["offset"] = .number(offset)
            }
            return ("scroll.band.\(method)", .object(o))
        case .dynamicsStopped(let behavior, let reason):
            return ("dynamics.stopped", .object(["session": name, "behavior": .number(Double(behavior)), "reason": .string(reason)]))
        case .dynamicsPaused:
            return ("dynamics.paused", .object(["session": name, "time": .number((time * 1000).rounded())]))
        }
    }
}
