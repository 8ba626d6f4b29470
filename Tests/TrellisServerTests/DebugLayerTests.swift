import Foundation
import Testing
import TrellisCore
import TrellisDynamics
@testable import TrellisProtocol

/// The debug layer (issue 29): viewers that attach with `debug` get, in the same frames as the
/// views, the shapes of what acts on the scene, diffed like views; the others get the frames
/// they got before, byte for byte, and the server builds no shape for them.
@Suite(.serialized) struct DebugLayerTests {
    static func call(_ c: RPCConnection, _ method: String, _ json: String) throws {
        let params = try JSONParser.parse(json)
        guard case .object(let members) = params else { throw TestFailure("params must be an object") }
        _ = try c.result(method, members)
    }

    /// A scene with every kind of shape: gravity and a collision behaviour with the reference
    /// bounds and a segment, a rect and an ellipse as boundaries; spring, limit, sliding and pin
    /// attachments; a snap; a radial field in a circle; items falling onto a boundary
    /// (contacts); then a drag past the top (rubber band) and a paging fling (its target).
    static func createScene(_ c: RPCConnection) throws {
        let items = (0..<60).map { #"{"id":"i\#($0)"}"# }.joined(separator: ",")
        try call(c, "session.create", #"{"name":"dbg","clock":"manual","bounds":[375,812],"layout":{"type":"flow","itemSize":[100,100]},"sections":[{"id":"s0","items":[\#(items)]}]}"#)
        for (name, center, size) in [("a", "[100,120]", "[60,60]"), ("b", "[250,120]", "[60,40]"), ("c", "[150,420]", "[50,50]"),
                                     ("d", "[300,480]", "[40,40]"), ("e", "[300,560]", "[40,40]")] {
            try call(c, "body.add", #"{"session":"dbg","body":"\#(name)","center":\#(center),"size":\#(size)}"#)
        }
        try call(c, "dynamics.add", #"{"session":"dbg","behavior":{"type":"gravity","items":[{"body":"a"},{"body":"b"},{"body":"e"}]}}"#)
        try call(c, "dynamics.add", #"{"session":"dbg","behavior":{"type":"collision","items":[{"body":"a"},{"body":"b"},{"body":"c"},{"body":"d"},{"body":"e"}],"translatesReferenceBoundsIntoBoundary":true,"boundaries":[{"id":"ledge","from":[0,300],"to":[200,350]},{"id":"box","rect":[250,600,100,100]},{"id":"bowl","ellipse":[20,700,150,150]}]}}"#)
        try call(c, "dynamics.add", #"{"session":"dbg","behavior":{"type":"attachment","item":{"body":"a"},"anchor":[100,20],"frequency":2,"damping":0.3}}"#)
        try call(c, "dynamics.add", #"{"session":"dbg","behavior":{"type":"attachment","kind":"limit","item":{"body":"b"},"attachedTo":{"body":"a"}}}"#)
        try call(c, "dynamics.add", #"{"session":"dbg","behavior":{"type":"attachment","kind":"sliding","item":{"body":"c"},"anchor":[150,420],"axisOfTranslation":[1,0],"attachmentRange":[-50,50]}}"#)
        try call(c, "dynamics.add", #"{"session":"dbg","behavior":{"type":"attachment","kind":"pin","item":{"body":"d"},"anchor":[300,460],"attachmentRange":[-0.5,0.5]}}"#)
        try call(c, "dynamics.add", #"{"session":"dbg","behavior":{"type":"snap","item":"i1","snapPoint":[200,240]}}"#)
        try call(c, "dynamics.add", #"{"session":"dbg","behavior":{"type":"field","kind":"radialGravity","items":[{"body":"c"}],"position":[200,420],"region":{"shape":"circle","radius":120}}}"#)
        try call(c, "scroll.configure", #"{"session":"dbg","pagingEnabled":true}"#)
    }

    /// The steps after the scene: the physics runs, a drag past the top, a paging fling.
    static let steps: [(String, String)] = [
        ("clock.advance", #"{"session":"dbg","ms":100}"#),
        ("clock.advance", #"{"session":"dbg","ms":200}"#),
        ("gesture.pan", #"{"session":"dbg","phase":"began","translation":[0,0]}"#),
        ("gesture.pan", #"{"session":"dbg","phase":"changed","translation":[0,150]}"#),
        ("gesture.pan", #"{"session":"dbg","phase":"ended","translation":[0,150],"velocity":[0,0]}"#),
        ("clock.advance", #"{"session":"dbg","ms":50}"#),
        ("clock.advance", #"{"session":"dbg","ms":2000}"#),
        ("gesture.pan", #"{"session":"dbg","phase":"began","translation":[0,0]}"#),
        ("gesture.pan", #"{"session":"dbg","phase":"ended","translation":[0,0],"velocity":[0,-2500]}"#),
        ("clock.advance", #"{"session":"dbg","ms":50}"#),
        ("clock.advance", #"{"session":"dbg","ms":3000}"#),
    ]

    /// What a debug viewer holds: the scene and the debug layer, from its keyframe and frames.
    struct Mirror {
        var scene: ViewerState
        var debug: DebugLayerState
        var lastSeq = Int.min
        /// Every kind of shape the layer held at some point.
        var kindsSeen: Set<DebugShape.Kind> = []

        init(keyframe: JSONValue) throws {
            scene = ViewerState(keyframe: try WireScene.scene(keyframe["keyframe"]!))
            debug = DebugLayerState(try WireDebug.layer(keyframe["debug"]!))
            kindsSeen.formUnion(debug.shapes.values.map(\.kind))
        }

        mutating func apply(_ viewer: RPCConnection) throws {
            for note in viewer.notifications where note["method"] == .string("frame") {
                let params = note["params"]!
                let seq = Int(params["seq"]!.numberValue!)
                // A frame that changes only the debug layer repeats the seq of the views' frame.
                #expect(seq >= lastSeq)
                lastSeq = seq
                scene.apply(try WireScene.delta(params))
                if let delta = try WireDebug.delta(params) {
                    #expect(!delta.isEmpty, "a frame's debug member is sent only when the layer changed")
                    debug.apply(delta)
                }
                kindsSeen.formUnion(debug.shapes.values.map(\.kind))
            }
            viewer.notifications.removeAll()
        }
    }

    @Test func aDebugViewersMirrorHoldsTheLayerAFreshKeyframeShowsAndEveryKindOfShapeAppears() throws {
        let server = try ServerProcess()
        let controller = try server.connect()
        try Self.createScene(controller)
        let viewer = try server.connect()
        var mirror = try Mirror(keyframe: try viewer.result("session.attach", ["session": .string("dbg"), "debug": .bool(true)]))
        var framesWithDebug = 0
        for (method, params) in Self.steps {
            try Self.call(controller, method, params)
            // A fresh debug viewer's keyframe is the layer every caught-up debug viewer holds.
            let fresh = try server.connect()
            let keyframe = try fresh.result("session.attach", ["session": .string("dbg"), "debug": .bool(true)])
            _ = try viewer.result("hello")
            framesWithDebug += viewer.notifications.filter { $0["params"]?["debug"] != nil }.count
            try mirror.apply(viewer)
            let truth = DebugLayerState(try WireDebug.layer(keyframe["debug"]!))
            #expect(mirror.debug == truth, "after \(method) \(params): the mirrored debug layer differs from a keyframe's")
            #expect(Bool(mirror.scene.scene == (try WireScene.scene(keyframe["keyframe"]!))))
            fresh.close()
        }
        #expect(framesWithDebug > 0)
        let missing = Set(DebugShape.Kind.allCases).subtracting(mirror.kindsSeen)
        #expect(missing.isEmpty, "kinds of shape never shown: \(missing.map(\.rawValue).sorted())")
        // Labels: the field's kind, the boundaries' names, the attachments' kinds and lengths.
        let labels = Set(mirror.debug.shapes.values.compactMap(\.label))
        for label in ["radialGravity", "ledge", "box", "bowl", "sliding", "pin", "gravity"] {
            #expect(labels.contains(label), "no shape labelled \(label) in \(labels.sorted())")
        }
        #expect(labels.contains { $0.hasPrefix("spring ") } && labels.contains { $0.hasPrefix("limit ") })
        server.stop()
    }

    /// The same script on two servers, one with a debug viewer beside a plain one: the plain
    /// viewers' frames are equal byte for byte, and the server with no debug viewer built no shape.
    @Test func aSessionNoViewerWatchesWithDebugPaysNothing() throws {
        func run(debug: Bool) throws -> (frames: [[UInt8]], built: Double) {
            let server = try ServerProcess()
            let controller = try server.connect()
            try Self.createScene(controller)
            let plain = try server.connect()
            plain.keepsRawLines = true
            let other = try server.connect()
            _ = try plain.result("session.attach", ["session": .string("dbg")])
            _ = try other.result("session.attach", ["session": .string("dbg"), "debug": .bool(debug)])
            for (method, params) in Self.steps { try Self.call(controller, method, params) }
            _ = try plain.result("hello")
            _ = try other.result("hello")
            let stats = try controller.result("stats", ["session": .string("dbg")])
            server.stop()
            let frames = plain.rawLines.filter { String(decoding: $0.prefix(60), as: UTF8.self).contains(#""method":"frame""#) }
            return (frames, stats["debugShapesBuilt"]?.numberValue ?? -1)
        }
        let with = try run(debug: true), without = try run(debug: false)
        #expect(without.built == 0, "no viewer asked for the debug layer, yet shapes were built")
        #expect(with.built > 0)
        #expect(with.frames.count > 5)
        #expect(with.frames == without.frames, "a plain viewer's frames changed because another viewer asked for the debug layer")
    }

    @Test func attachRefusesADebugThatIsNotABoolean() throws {
        let server = try ServerProcess()
        let c = try server.connect()
        try Self.createScene(c)
        let reply = try c.call("session.attach", ["session": .string("dbg"), "debug": .string("yes")])
        #expect(reply["error"]?["code"] == .number(-32602))
        #expect(reply["error"]?["message"]?.stringValue?.contains("params.debug") == true)
        server.stop()
    }
}
