import Foundation
import TrellisCore
import TrellisProtocol

/// Every difference between what the page shows and the session's `query.scene`, one line each;
/// empty when they agree. The scene is taken from the wire as the page received it.
enum SceneComparison {
    /// Boxes: a thousandth of a point, the wire's own rounding.
    static let boxTolerance = 1e-3
    /// Typed OM transforms and opacity come back as the numbers the page wrote (opacity as a
    /// 32-bit float), so these are tight.
    static let matrixTolerance = 1e-9
    static let opacityTolerance = 1e-6

    static func mismatches(page: PageSnapshot, scene: JSONValue) -> [String] {
        var found: [String] = []
        let offset = scene["contentOffset"]?.arrayValue?.compactMap(\.numberValue) ?? []
        let bounds = scene["bounds"]?.arrayValue?.compactMap(\.numberValue) ?? []
        let sceneViews = scene["views"]?.arrayValue ?? []
        guard offset.count == 2, bounds.count == 2 else { return ["the scene has no contentOffset or bounds: \(scene)"] }

        if !close(page.stageWidth, bounds[0], boxTolerance) || !close(page.stageHeight, bounds[1], boxTolerance) {
            found.append("the stage is \(page.stageWidth)×\(page.stageHeight), the bounds \(bounds[0])×\(bounds[1])")
        }

        // The set of views: each scene view shown by exactly one element, nothing else shown.
        var elements: [Int: [PageView]] = [:]
        for view in page.views { elements[view.id, default: []].append(view) }
        let shownIDs = Set(page.views.filter(\.displayed).map(\.id))
        let sceneIDs = sceneViews.compactMap { $0["view"]?.numberValue.map { Int($0) } }
        if Set(sceneIDs) != shownIDs {
            found.append("views shown \(shownIDs.sorted()) ≠ the scene's \(sceneIDs.sorted())")
        }
        for (id, list) in elements where list.count > 1 { found.append("view \(id) has \(list.count) elements") }

        var previousZ: (id: Int, z: Int)?
        for (order, v) in sceneViews.enumerated() {
            guard let id = v["view"]?.numberValue.map({ Int($0) }) else { found.append("a scene view without id: \(v)"); continue }
            guard let el = elements[id]?.first(where: \.displayed) else { continue }
            let frame = v["frame"]?.arrayValue?.compactMap(\.numberValue) ?? []
            guard frame.count == 4 else { found.append("view \(id): no frame in \(v)"); continue }
            let what = "view \(id) (\(v["element"].map { JSONWriter.string($0) } ?? "?"), order \(order))"

            let box = [("left", el.left, frame[0] - offset[0]), ("top", el.top, frame[1] - offset[1]),
                       ("width", el.width, frame[2]), ("height", el.height, frame[3])]
            for (name, shown, expected) in box where !close(shown, expected, boxTolerance) {
                found.append("\(what): \(name) \(shown) ≠ \(expected)")
            }

            let transform = v["transform"]?.arrayValue?.compactMap(\.numberValue) ?? SceneTransform.identity
            if transform.count != 16 { found.append("\(what): a transform of \(transform.count) numbers") }
            if el.matrix.count != 16 || zip(el.matrix, transform).contains(where: { !close($0, $1, matrixTolerance) }) {
                found.append("\(what): Typed OM transform \(el.matrix) ≠ \(transform)")
            }
            // getComputedStyle's text, parsed as a person reading it would: printed to 6
            // significant digits, so it agrees to about 1e-5 of each value's size.
            if let parsed = cssTransformMatrix(el.transformText) {
                if zip(parsed, transform).contains(where: { !close($0, $1, 1e-3 + 1e-5 * abs($1)) }) {
                    found.append("\(what): computed transform \(el.transformText) ≠ \(transform)")
                }
            } else {
                found.append("\(what): computed transform \(el.transformText) is not none, matrix() or matrix3d()")
            }

            let alpha = v["alpha"]?.numberValue ?? 1
            if !close(el.opacity, alpha, opacityTolerance) { found.append("\(what): opacity \(el.opacity) ≠ alpha \(alpha)") }
            let hidden = v["hidden"] == .bool(true)
            if el.visibility != (hidden ? "hidden" : "visible") {
                found.append("\(what): visibility \(el.visibility) but hidden is \(hidden)")
            }

            // Stacking: the scene lists views back to front, so z-index must rise along it.
            if let z = el.zIndex {
                if let previous = previousZ, z <= previous.z {
                    found.append("\(what): z-index \(z) not above view \(previous.id)'s \(previous.z), drawn before it")
                }
                previousZ = (id, z)
            } else {
                found.append("\(what): z-index auto")
            }

            if let label = v["data"]?["label"]?.stringValue, el.label != label {
                found.append("\(what): label \(el.label) ≠ \(label)")
            }
        }
        return found
    }

    static func close(_ a: Double, _ b: Double, _ tolerance: Double) -> Bool { abs(a - b) <= tolerance }
}
