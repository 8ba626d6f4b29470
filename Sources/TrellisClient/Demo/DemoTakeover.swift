import TrellisCore
import TrellisProtocol

/// Tells the demo's own doings from someone else's on the session it drives (a page with
/// `--control`, `trellis attach`'s keys, a script), from the notifications every viewer gets:
/// a drag, batch update, layout change or scroll whose id none of the demo's replies named,
/// or a selection (the demo never selects). It also follows the demo's own pan, so a demo cut
/// short lifts its finger unless someone else's pan has already replaced it.
public struct DemoTakeover: Sendable {
    private var updates = Set<Int>()
    private var transitions = Set<Int>()
    private var scrolls = Set<Int>()
    /// Own pans whose `scroll.willBeginDragging` (or a band's) has not come yet.
    private var pansBegun = 0
    /// The translation of the demo's pan while its finger is down.
    public private(set) var openPan: JSONValue?

    public init() {}

    /// A request the demo sent and its reply.
    public mutating func sent(_ method: String, _ params: [String: JSONValue], reply: JSONValue) {
        func id(_ key: String) -> Int? { reply[key]?.numberValue.map { Int($0) } }
        switch method {
        case "batch": if let n = id("update") { updates.insert(n) }
        case "layout.set": if let n = id("transition") { transitions.insert(n) }
        case "scroll.to", "scroll.toItem": if let n = id("scroll") { scrolls.insert(n) }
        case "gesture.pan":
            switch params["phase"]?.stringValue {
            case "began":
                pansBegun += 1
                openPan = params["translation"]
            case "changed": openPan = params["translation"]
            default: openPan = nil
            }
        default: break
        }
    }

    /// True when `notification` shows someone else acting on the session.
    public mutating func isSomeoneElse(_ notification: JSONValue) -> Bool {
        let params = notification["params"] ?? .null
        func id(_ key: String) -> Int? { params[key]?.numberValue.map { Int($0) } }
        switch notification["method"]?.stringValue {
        case "scroll.willBeginDragging", "scroll.band.willBeginDragging":
            if pansBegun > 0 {
                pansBegun -= 1
                return false
            }
            // Another finger: the demo's own pan, if any, was replaced by it.
            openPan = nil
            return true
        case "update.completed": return id("update").map { updates.remove($0) == nil } ?? false
        case "transition.completed": return id("transition").map { transitions.remove($0) == nil } ?? false
        case "scroll.completed": return id("scroll").map { scrolls.remove($0) == nil } ?? false
        case "selection.changed": return true
        default: return false
        }
    }

    /// The request that lifts the demo's finger, when it is down: a pan cancelled where it is.
    public mutating func liftFinger(session: String) -> [String: JSONValue]? {
        guard let translation = openPan else { return nil }
        openPan = nil
        return ["session": .string(session), "phase": .string("cancelled"), "translation": translation]
    }
}
