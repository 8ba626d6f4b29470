import TrellisCore
import TrellisDynamics
import TrellisGeometry

/// `{"type": "collision", "items", "collisionMode", "translatesReferenceBoundsIntoBoundary",
/// "boundaryInsets", "boundaries"}` (UICollisionBehavior).
extension CollisionBehavior: RegisteredBehavior {
    public static let typeName = "collision"
    public static let keys = ["items", "collisionMode", "translatesReferenceBoundsIntoBoundary", "boundaryInsets", "boundaries"]
    public static let options: [BehaviorOption] = [
        BehaviorOption("mode", "collisionMode", .choice(BehaviorSpec.collisionModes)),
        BehaviorOption("bounds-boundary", "translatesReferenceBoundsIntoBoundary", .flag(.bool(true))),
        BehaviorOption("insets", "boundaryInsets", .insets),
        BehaviorOption("boundary", "boundaries", .boundary),
    ]

    public static func decode(_ r: SpecReader, _ resolver: inout DynamicElementResolver) throws(BehaviorSpecError) -> CollisionBehavior {
        var b = CollisionBehavior(items: try BehaviorSpec.items(r, &resolver))
        do throws(ParamError) {
            switch try r.choice("collisionMode", BehaviorSpec.collisionModes, default: "everything") {
            case "items": b.mode = .items
            case "boundaries": b.mode = .boundaries
            default: b.mode = .everything
            }
            b.translatesReferenceBoundsIntoBoundary = try r.bool("translatesReferenceBoundsIntoBoundary", default: false)
            if let i = try r.numbers("boundaryInsets", ["top", "left", "bottom", "right"], BehaviorSpec.vector) {
                b.boundaryInsets = EdgeInsets(top: i[0], left: i[1], bottom: i[2], right: i[3])
            }
            var seen = Set<String>()
            for (k, value) in (try r.array("boundaries") ?? []).enumerated() {
                let br = SpecReader(value, path: "\(r.path).boundaries[\(k)]")
                try br.allow(["id", "from", "to", "rect", "ellipse"])
                guard let id = try br.string("id") else { throw ParamError(path: "\(br.path).id", .missing(expected: "the boundary's identifier (a string)")) }
                guard seen.insert(id).inserted else {
                    throw ParamError(path: "\(br.path).id", .mismatch(expected: "an identifier not used by another boundary", found: "\"\(id)\" again"))
                }
                let shapes = ["rect", "ellipse", "from"].filter(br.has)
                guard shapes.count <= 1, br.has("from") == br.has("to") else {
                    throw ParamError(path: br.path, .mismatch(expected: "one shape: \"from\" and \"to\" (a segment), \"rect\" or \"ellipse\"", found: "keys \(["rect", "ellipse", "from", "to"].filter(br.has).joined(separator: ", "))"))
                }
                if let rect = try br.rect("rect", BehaviorSpec.coordinate) {
                    b.boundaries.append((id, .rect(rect)))
                } else if let oval = try br.rect("ellipse", BehaviorSpec.coordinate) {
                    b.boundaries.append((id, .ellipse(oval)))
                } else if let from = try br.point("from", BehaviorSpec.coordinate), let to = try br.point("to", BehaviorSpec.coordinate) {
                    b.boundaries.append((id, .segment(from, to)))
                } else {
                    throw ParamError(path: br.path, .missing(expected: "a shape: \"from\" and \"to\" points (a segment), \"rect\" or \"ellipse\": [x, y, width, height]"))
                }
            }
        } catch { throw .params(error) }
        return b
    }
}

extension BehaviorSpec {
    /// The names of `collisionMode`.
    public static let collisionModes = ["everything", "items", "boundaries"]
}
