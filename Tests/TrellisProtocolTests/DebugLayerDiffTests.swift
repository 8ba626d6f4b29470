import Testing
import TrellisCore
import TrellisDynamics
@testable import TrellisProtocol

/// The debug layer's diff: a viewer that applies a keyframe and then each frame's `debug`
/// member, as the bytes carry it, holds the shapes of the last frame; a frame carries only the
/// shapes that changed.
@Suite struct DebugLayerDiffTests {
    /// A layer of random shapes: some owners come and go, some move, some stay (sorted by id).
    static func layer(_ rng: inout SplitMix64, frame: Int) -> [DebugShape] {
        var shapes: [DebugShape] = []
        for owner in 0..<20 where rng.below(4) != 0 {
            let x = Double(rng.below(300)), y = Double(rng.below(300)) + (owner % 3 == 0 ? Double(frame) : 0)
            let id = DebugShapeID(owner % 2 == 0 ? .item : .joint, owner, Int(rng.below(2)))
            let geometry: DebugShape.Geometry
            switch rng.below(6) {
            case 0: geometry = .box(center: Point(x, y), size: Size(40, 20), angle: Double(rng.below(7)) / 4)
            case 1: geometry = .polygon([Point(x, y), Point(x + 10, y), Point(x, y + 10)])
            case 2: geometry = .polyline([Point(x, y), Point(x + 5.5, y - 3)])
            case 3: geometry = .ellipse(center: Point(x, y), radii: Size(12, 8))
            case 4: geometry = .point(Point(x, y))
            default: geometry = .arrow(from: Point(x, y), to: Point(x + 30, y))
            }
            shapes.append(DebugShape(id, .collision, geometry, label: owner % 5 == 0 ? "n\(owner)" : nil))
        }
        return shapes.sorted { $0.id < $1.id }
    }

    /// A shape as a viewer reads it back from the wire (a box arrives as its corners).
    static func wire(_ shape: DebugShape) throws -> DebugShape {
        var b = ByteBuffer()
        WireEncoding.writeDebugShape(shape, into: &b)
        return try WireDebug.shape(try JSONParser.parse(b.bytes), path: "shape")
    }

    @Test(arguments: 0..<16) func framesBringAViewerToTheLastLayer(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var shapes = Self.layer(&rng, frame: 0)
        var published = PublishedDebugLayer(keyframe: shapes)
        var viewer = DebugLayerState(try shapes.map(Self.wire))
        for frame in 1...12 {
            // The same shapes stay put (and unsent) unless the random layer moved them.
            let before = Dictionary(uniqueKeysWithValues: published.shapes.map { ($0.id, $0) })
            var next = frame % 4 == 0 ? published.shapes : Self.layer(&rng, frame: frame)
            let expected = next
            var writer = DebugFrameWriter()
            published.publish(&next, writing: &writer)
            var o = ByteBuffer()
            var params = JSONObjectWriter(into: &o)
            params.field("time", 0, into: &o)
            writer.write(&params, into: &o)
            params.end(into: &o)
            let delta = try WireDebug.delta(try JSONParser.parse(o.bytes)) ?? DebugLayerDelta()
            #expect(writer.isEmpty == delta.isEmpty)
            for sent in delta.shapes {
                if let old = before[sent.id] { #expect(try Self.wire(old) != sent, "an unchanged shape was sent again") }
            }
            viewer.apply(delta)
            #expect(viewer == DebugLayerState(try expected.map(Self.wire)), "seed \(seed), frame \(frame)")
            #expect(published.shapes == expected)
        }
    }

    @Test func idsReadBackAndOrderByGroupOwnerPart() {
        let ids = [DebugShapeID(.item, 3, 0), DebugShapeID(.contact, 2, -4), DebugShapeID(.scroll, 0, 3)]
        for id in ids { #expect(DebugShapeID(text: id.text) == id) }
        #expect(ids.sorted().map(\.text) == ["scroll.0.3", "item.3.0", "contact.2.-4"])
        #expect(DebugShapeID(text: "item.3") == nil && DebugShapeID(text: "nope.1.2") == nil)
    }
}
