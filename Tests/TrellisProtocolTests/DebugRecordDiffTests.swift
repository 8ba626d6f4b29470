import Testing
import TrellisCore
import TrellisDynamics
@testable import TrellisProtocol

/// The debug layer's items and contacts as records (issue 29's cost): a frame compares plain
/// records and makes a shape only for an item or contact whose record changed, so exactly that
/// item's changed shapes go, and a viewer applying the frames holds the server's layer.
@Suite struct DebugRecordDiffTests {
    static func item(_ owner: Int, view: Int = 10, size: Size = Size(30, 30), arrow: (Double, Double) = (0, 0)) -> DebugItemRecord {
        DebugItemRecord(owner: owner, view: view, size: size, center: .zero, angle: 0, arrowX: arrow.0, arrowY: arrow.1)
    }

    /// The ids a publish of `layer` sends and removes.
    static func publish(_ layer: DebugLayerContents, into published: inout PublishedDebugLayer) -> (sent: [String], removed: [String]) {
        var next = layer
        var delta = DebugLayerDelta()
        published.publish(&next, reporting: &delta)
        return (delta.shapes.map(\.id.text), delta.removed.map(\.text))
    }

    @Test func aChangedRecordSendsExactlyThatItemsChangedShapes() {
        var layer = DebugLayerContents()
        layer.shapes = [DebugShape(DebugShapeID(.bounds, 0), .bounds, .box(center: Point(100, 100), size: Size(200, 200), angle: 0))]
        layer.items = (1...5).map { Self.item($0, view: 10 + $0, arrow: (2, -1)) }
        layer.contacts = [DebugContactRecord(first: 1, part: 2, x: 40, y: 50), DebugContactRecord(first: 3, part: -1, x: 90, y: 200)]
        var published = PublishedDebugLayer(keyframe: layer)
        #expect(published.shapes == layer.allShapes)
        #expect(Self.publish(layer, into: &published) == ([], []))

        layer.items[1].size = Size(40, 30)
        #expect(Self.publish(layer, into: &published) == (["item.2.0"], []))
        layer.items[2].view = 99
        #expect(Self.publish(layer, into: &published) == (["item.3.0", "item.3.1", "item.3.2"], []))
        // An arrow a step from the one viewers hold stays; two steps from it, it goes.
        layer.items[0].arrowX = 3
        #expect(Self.publish(layer, into: &published) == ([], []))
        layer.items[0].arrowX = 4
        #expect(Self.publish(layer, into: &published) == (["item.1.2"], []))
        layer.items[3].arrowX = 0
        layer.items[3].arrowY = 0
        #expect(Self.publish(layer, into: &published) == ([], ["item.4.2"]))
        // An item without a view draws in content coordinates: its centre moving sends all three.
        layer.items[4] = DebugItemRecord(owner: 5, view: -1, size: Size(30, 30), center: Point(7, 8), angle: 0.5, arrowX: 2, arrowY: -1)
        #expect(Self.publish(layer, into: &published) == (["item.5.0", "item.5.1", "item.5.2"], []))
        layer.items.remove(at: 2)
        layer.items.append(Self.item(9, arrow: (1, 0)))
        #expect(Self.publish(layer, into: &published) == (["item.9.0", "item.9.1", "item.9.2"], ["item.3.0", "item.3.1", "item.3.2"]))
        // A contact moved by a point stays; by two, it goes; one that ended is removed.
        layer.contacts[0].x = 41
        #expect(Self.publish(layer, into: &published) == ([], []))
        layer.contacts[0].x = 43
        #expect(Self.publish(layer, into: &published) == (["contact.1.2"], []))
        layer.contacts.removeLast()
        #expect(Self.publish(layer, into: &published) == ([], ["contact.3.-1"]))
        #expect(published.shapes.map(\.id.text) == ["bounds.0.0"] + ["item.1.0", "item.1.1", "item.1.2", "item.2.0", "item.2.1", "item.2.2",
                                                                     "item.4.0", "item.4.1", "item.5.0", "item.5.1", "item.5.2",
                                                                     "item.9.0", "item.9.1", "item.9.2", "contact.1.2"])
    }

    /// Random layers whose items come and go, change views and sizes, and whose arrows and
    /// contacts wander: a viewer applying each frame's bytes holds the server's layer, a frame
    /// never sends a shape the viewer already holds, and what the server holds differs from the
    /// layer built only by arrows and contacts within their step.
    @Test(arguments: 0..<12) func framesOfRecordsBringAViewerToTheLayer(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var items: [Int: DebugItemRecord] = [:]
        var contacts: [Int: DebugContactRecord] = [:]
        var published = PublishedDebugLayer()
        var viewer = DebugLayerState()
        func wander(_ rng: inout SplitMix64) -> Double { Double(rng.below(5) - 2) }
        for frame in 0..<40 {
            for owner in 0..<24 {
                if rng.below(8) == 0 { items[owner] = items[owner] == nil ? Self.item(owner, view: owner % 4 == 0 ? -1 : owner) : nil }
                guard var item = items[owner] else { continue }
                if rng.below(12) == 0 { item.view = item.view < 0 ? owner : -1 }
                if rng.below(12) == 0 { item.size = Size(Double(20 + rng.below(3) * 10), 30) }
                if item.view < 0 { item.center = Point(item.center.x + wander(&rng), item.center.y + 1) }
                item.arrowX += wander(&rng)
                item.arrowY = rng.below(6) == 0 ? 0 : item.arrowY + wander(&rng)
                items[owner] = item
            }
            for key in 0..<16 where rng.below(6) == 0 {
                contacts[key] = contacts[key] == nil ? DebugContactRecord(first: key / 4, part: key % 4 - 2, x: 50, y: 50) : nil
            }
            for key in contacts.keys where rng.below(2) == 0 {
                contacts[key]!.x += wander(&rng)
            }
            var layer = DebugLayerContents()
            layer.shapes = [DebugShape(DebugShapeID(.force, 1), .force, .arrow(from: .zero, to: Point(x: Double(frame / 10), y: 1)))]
            layer.items = items.values.sorted { $0.owner < $1.owner }
            layer.contacts = contacts.values.sorted { $0.precedes($1) }
            let built = layer.allShapes
            let before = viewer.shapes
            var writer = DebugFrameWriter()
            published.publish(&layer, writing: &writer)
            var o = ByteBuffer()
            var params = JSONObjectWriter(into: &o)
            params.field("time", 0, into: &o)
            writer.write(&params, into: &o)
            params.end(into: &o)
            let delta = try WireDebug.delta(try JSONParser.parse(o.bytes)) ?? DebugLayerDelta()
            for sent in delta.shapes {
                if let old = before[sent.id] { #expect(old != sent, "seed \(seed), frame \(frame): \(sent.id.text) sent again unchanged") }
            }
            viewer.apply(delta)
            let held = published.shapes
            #expect(viewer == DebugLayerState(try held.map(DebugLayerDiffTests.wire)), "seed \(seed), frame \(frame)")
            #expect(held.map(\.id) == built.map(\.id))
            for (h, b) in zip(held, built) where h != b {
                let step = DynamicAnimator.debugVelocityStep
                switch (h.kind, h.geometry, b.geometry) {
                case (.velocity, .arrow(let a0, let e0), .arrow(let a1, let e1)):
                    #expect(a0 == a1 && abs(e0.x - e1.x) <= step && abs(e0.y - e1.y) <= step, "\(h) for \(b)")
                case (.contact, .point(let p0), .point(let p1)):
                    #expect(abs(p0.x - p1.x) <= 1 && abs(p0.y - p1.y) <= 1, "\(h) for \(b)")
                default:
                    Issue.record("seed \(seed), frame \(frame): held \(h) for built \(b)")
                }
            }
        }
    }

    /// A pile's layer published every frame, and a copy of that published layer left behind at
    /// frame 30 (as a lagging viewer's is) and published again only at frame 90, then every
    /// frame: each viewer applying its frames holds its server side's layer, which differs from
    /// the layer built only by arrows and contacts within their step: whatever a publish keeps
    /// from frame to frame to save work, the copy's is sixty frames old and must not make it
    /// skip what changed since.
    @Test func aPublishedLayerLeftBehindCatchesUpWithThePile() throws {
        var view = DebugLayerCostTests.pile(count: 40)
        var built = DebugLayerContents()
        var itemViews = DebugItemViews()
        var live = PublishedDebugLayer(), liveViewer = DebugLayerState()
        var behind = PublishedDebugLayer(), behindViewer = DebugLayerState()
        func check(_ published: PublishedDebugLayer, _ viewer: DebugLayerState, against layer: DebugLayerContents, _ frame: Int) throws {
            let held = published.shapes, want = layer.allShapes
            #expect(viewer == DebugLayerState(held), "frame \(frame)")
            #expect(held.map(\.id) == want.map(\.id), "frame \(frame)")
            for (h, b) in zip(held, want) where h != b {
                switch (h.geometry, b.geometry) {
                case (.arrow(let a0, let e0), .arrow(let a1, let e1)):
                    let step = DynamicAnimator.debugVelocityStep
                    #expect(a0 == a1 && abs(e0.x - e1.x) <= step && abs(e0.y - e1.y) <= step, "frame \(frame): \(h) for \(b)")
                case (.point(let p0), .point(let p1)) where h.kind == .contact:
                    #expect(abs(p0.x - p1.x) <= 1 && abs(p0.y - p1.y) <= 1, "frame \(frame): \(h) for \(b)")
                default:
                    Issue.record("frame \(frame): held \(h) for built \(b)")
                }
            }
        }
        var caughtUp = 0
        for k in 0...150 {
            if k > 0 { view.advance(to: Double(k) / 60) }
            view.buildDebugLayer(into: &built, itemViews: &itemViews)
            let layer = built
            var delta = DebugLayerDelta()
            live.publish(&built, reporting: &delta)
            liveViewer.apply(delta)
            try check(live, liveViewer, against: layer, k)
            if k == 30 {
                behind = live
                behindViewer = liveViewer
            } else if k >= 90 {
                var next = layer
                var caughtDelta = DebugLayerDelta()
                behind.publish(&next, reporting: &caughtDelta)
                if k == 90 { caughtUp = caughtDelta.shapes.count + caughtDelta.removed.count }
                behindViewer.apply(caughtDelta)
                try check(behind, behindViewer, against: layer, k)
            }
        }
        // Sixty frames of a falling pile changed arrows and contacts: the catch-up carried them.
        #expect(caughtUp > 0)
    }
}
