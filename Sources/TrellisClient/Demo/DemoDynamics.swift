import TrellisCore
import TrellisProtocol

/// UIKit Dynamics in the demo, on free bodies over the cells: a card dropped onto a floor at
/// the bottom of the view (gravity, a collision boundary, elasticity 0.5: the "thud" drop),
/// then four boxes dropped one after another that pile up on it (one collision behaviour
/// holds them all, so they hit each other too). At the end every behaviour and body it added
/// goes again, so the next step starts from the cells alone.
enum DemoDynamics {
    static let card = "thud"
    static let boxes = ["box1", "box2", "box3", "box4"]
    /// Where each box falls from (fractions of the width) and how it is turned (radians).
    static let drops: [(x: Double, angle: Double)] = [(0.27, 0.35), (0.7, -0.3), (0.47, 0.15), (0.62, 0.6)]

    /// The step's requests from `start` (ms), for a view of `bounds` scrolled to the top.
    static func actions(session: String, bounds: Size, at start: Double) -> (actions: [DemoStep.Action], end: Double) {
        let name = JSONValue.string(session)
        let w = bounds.width, h = bounds.height
        func point(_ x: Double, _ y: Double) -> JSONValue { .array([.number(x.rounded()), .number(y.rounded())]) }
        func body(_ id: String) -> JSONValue { .object(["body": .string(id)]) }
        func add(_ id: String, at centre: JSONValue, size: Size, angle: Double, zIndex: Int, color: String) -> DemoRequest {
            DemoRequest("body.add", ["session": name, "body": .string(id), "center": centre,
                                     "size": .array([.number(size.width.rounded()), .number(size.height.rounded())]),
                                     "angle": .number(angle), "zIndex": .number(Double(zIndex)), "reuseId": .string("body"),
                                     "data": .object(["label": .string(id), "color": .string(color)])])
        }
        // The floor is the view's bottom edge and the walls its sides, as the content is at the top.
        let boundaries: JSONValue = .array([
            .object(["id": .string("floor"), "from": point(0, h - 1), "to": point(w, h - 1)]),
            .object(["id": .string("left"), "from": point(1, -h), "to": point(1, h)]),
            .object(["id": .string("right"), "from": point(w - 1, -h), "to": point(w - 1, h)]),
        ])
        func behaviours(_ elements: [String]) -> [(type: String, keys: [String: JSONValue])] {
            let items = JSONValue.array(elements.map(body))
            return [("gravity", ["items": items]),
                    ("collision", ["items": items, "boundaries": boundaries]),
                    ("item", ["items": items, "elasticity": .number(0.5), "friction": .number(0.5)])]
        }

        let cardSize = Size(w * 0.36, h * 0.3)
        var actions = [DemoStep.Action(at: start, add(card, at: point(w / 2, cardSize.height / 2 + 4), size: cardSize,
                                                      angle: 0.12, zIndex: 100, color: "orange"))]
        for (type, keys) in behaviours([card]) {
            var behaviour = keys
            behaviour["type"] = .string(type)
            actions.append(DemoStep.Action(at: start, DemoRequest("dynamics.add", ["session": name, "behavior": .object(behaviour)], keeps: type)))
        }
        // The boxes once the card rests, one every 450 ms, each joining the same behaviours.
        let boxSize = Size(w * 0.16, h * 0.17)
        for (k, id) in boxes.enumerated() {
            let at = start + 1900 + 450 * Double(k)
            let drop = drops[k]
            actions.append(DemoStep.Action(at: at, add(id, at: point(w * drop.x, boxSize.height / 2 + 2), size: boxSize,
                                                       angle: drop.angle, zIndex: 101 + k, color: "turquoise")))
            for (type, keys) in behaviours([card] + boxes.prefix(k + 1)) {
                var params = keys
                params["session"] = name
                params["behavior"] = DemoRequest.kept(type)
                actions.append(DemoStep.Action(at: at, DemoRequest("dynamics.update", params)))
            }
        }
        let end = start + 5400
        for request in cleanup(session: session) { actions.append(DemoStep.Action(at: end, request)) }
        return (actions, end)
    }

    /// Removes the behaviours, then the bodies (a body is refused while a behaviour acts on it).
    static func cleanup(session: String) -> [DemoRequest] {
        let name = JSONValue.string(session)
        return ["gravity", "collision", "item"].map { DemoRequest("dynamics.remove", ["session": name, "behavior": DemoRequest.kept($0)]) }
            + ([card] + boxes).map { DemoRequest("body.remove", ["session": name, "body": .string($0)]) }
    }
}
