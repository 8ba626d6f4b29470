import TrellisCore
import TrellisGeometry
import TrellisProtocol

/// body.add and body.remove: free dynamic bodies, named views that are not data items.
enum BodyMethods {
    static let entries: [Method] = [
        Method("body.add", .changesSession) { context throws(RPCError) in
            try context.allow(["session", "body", "center", "size", "reuseId", "data", "zIndex", "angle"])
            let session = try context.sessionBroughtToNow()
            let name = try bodyName(context)
            let limit = context.server.configuration.maximumBodies
            guard session.collectionView.freeBodyCount < limit else {
                throw .domain("limit_exceeded", "session '\(session.name)' has \(limit) bodies, the most this trellisd allows (--max-bodies); remove some first (body.remove)",
                              details: ["limit": .number(Double(limit))])
            }
            let center = try context.numbers("center", ["x", "y"], in: ParamRanges.coordinate)
            let size = try context.numbers("size", ["width", "height"], in: BehaviorSpec.bodySide)
            let reuseId = try context.optionalString("reuseId") ?? FreeBody.defaultReuseIdentifier
            guard !reuseId.isEmpty, reuseId.count <= 128 else {
                throw .invalidParams("params.reuseId: expected a non-empty reuse identifier of at most 128 characters")
            }
            let zIndex = try context.optionalNumber("zIndex", in: -1_000_000...1_000_000) ?? 0
            guard zIndex == zIndex.rounded() else { throw .invalidParams("params.zIndex: expected a whole number, found \(zIndex)") }
            let angle = try context.optionalNumber("angle", in: BehaviorSpec.angle) ?? 0
            let body: FreeBody
            do throws(EngineError) {
                body = try session.collectionView.addBody(name: name, center: Point(center[0], center[1]), size: Size(size[0], size[1]),
                                                          angle: angle, reuseIdentifier: reuseId, data: context.params.field("data").map(ItemPayload.init),
                                                          zIndex: Int(zIndex))
            } catch { throw .from(error) }
            return .object(["body": .string(body.name), "element": .object([
                "kind": .string("body"), "section": .number(0), "item": .number(Double(body.number)), "id": .string(body.name)])])
        },
        Method("body.remove", .changesSession) { context throws(RPCError) in
            try context.allow(["session", "body"])
            let session = try context.sessionBroughtToNow()
            let name = try context.string("body")
            do throws(EngineError) { try session.collectionView.removeBody(named: name) } catch { throw .from(error) }
            return .object(["removed": .string(name)])
        },
    ]

    static func bodyName(_ context: MethodContext) throws(RPCError) -> String {
        let name = try context.string("body")
        guard !name.isEmpty, name.count <= 64,
              !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .invalidParams("params.body: expected a non-empty name of at most 64 characters without control characters")
        }
        return name
    }
}
