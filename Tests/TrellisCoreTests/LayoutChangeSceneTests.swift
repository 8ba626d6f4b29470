import Testing
@testable import TrellisCore

/// setCollectionViewLayout between every pair of layouts, at once and animated: once it is over,
/// the scene is the one a session made with the new layout shows at the same offset (a carousel
/// lays out against the offset, so one prepared at the old offset draws the wrong covers).
@Suite struct LayoutChangeSceneTests {
    static let bounds = Size(375, 812)

    /// Every layout the protocol names, each carousel style as its own.
    static var layouts: [(String, any Layout)] {
        var all: [(String, any Layout)] = [("flow", FlowLayout(metrics: FlowLayoutMetrics(itemSize: Size(120, 120)))),
                                           ("circle", CircleLayout()), ("line", LineLayout()),
                                           ("coverFlow", CoverFlowLayout()), ("stack", StackLayout()),
                                           ("springy", SpringyFlowLayout())]
        for style in CarouselStyle.allCases { all.append(("carousel \(style.rawValue)", CarouselLayout(style: style))) }
        return all
    }

    /// The elements on screen with their attributes, and the layout's current item.
    struct Shown: Equatable {
        var offset: Point
        var currentItem: IndexPath?
        var attributes: [ElementID: LayoutAttributes]
    }

    static func shown(_ view: CollectionView) -> Shown {
        let visible = Rect(origin: view.scene.contentOffset, size: view.scene.boundsSize)
        var attributes: [ElementID: LayoutAttributes] = [:]
        for v in view.scene.views where v.attributes.visualBounds.intersects(visible) && !v.attributes.isHidden {
            attributes[v.element] = v.attributes
        }
        return Shown(offset: view.scene.contentOffset, currentItem: view.layout.currentItem, attributes: attributes)
    }

    /// A session made with `layout`, at `offset`.
    static func fresh(_ layout: any Layout, at offset: Point) -> CollectionView {
        var view = CollectionView(boundsSize: bounds, layout: layout, data: items(24))
        view.setContentOffset(offset)
        return view
    }

    /// Attributes equal to rounding (a transition and a fresh prepare reach the same offset by
    /// different sums).
    static func same(_ a: Shown, _ b: Shown) -> Bool {
        guard near(a.offset.x, b.offset.x, 1e-6), near(a.offset.y, b.offset.y, 1e-6), a.currentItem == b.currentItem,
              Set(a.attributes.keys) == Set(b.attributes.keys) else { return false }
        for (element, x) in a.attributes {
            let y = b.attributes[element]!
            guard near(x.frame.minX, y.frame.minX, 1e-6), near(x.frame.minY, y.frame.minY, 1e-6),
                  near(x.frame.width, y.frame.width, 1e-6), near(x.frame.height, y.frame.height, 1e-6),
                  near(x.alpha, y.alpha, 1e-9), x.zIndex == y.zIndex,
                  zip(x.transform.values, y.transform.values).allSatisfy({ near($0, $1, 1e-6) }) else { return false }
        }
        return true
    }

    func check(animated: Bool) {
        var failures: [String] = []
        for (fromName, from) in Self.layouts {
            for (toName, to) in Self.layouts where toName != fromName {
                // From the old layout's start and from an item in its middle.
                for start in [nil, IndexPath(0, 9)] as [IndexPath?] {
                    var view = CollectionView(boundsSize: Self.bounds, layout: from, data: items(24))
                    if let start { try? view.scrollToItem(at: start, position: [.centeredVertically, .centeredHorizontally]) }
                    view.advance(to: 0.1)
                    view.setLayout(to, animation: animated ? .default : .immediate)
                    view.advance(to: 1)
                    view.advance(to: 1.5)
                    let after = Self.shown(view)
                    let expected = Self.shown(Self.fresh(to, at: view.scene.contentOffset))
                    if !Self.same(after, expected) {
                        failures.append("\(fromName) → \(toName) from \(start.map { "\($0.section):\($0.item)" } ?? "0"): "
                                        + "current \(String(describing: after.currentItem)) vs \(String(describing: expected.currentItem)), "
                                        + "\(after.attributes.count) vs \(expected.attributes.count) shown")
                    }
                }
            }
        }
        let count = failures.count
        #expect(count == 0, "changes that differ:\n\(failures.prefix(20).joined(separator: "\n"))")
    }

    @Test func anUnanimatedChangeShowsWhatAFreshSessionShowsAtTheSameOffset() { check(animated: false) }

    /// Mid-change the views travel with the offset: no frame of an animated change shows an
    /// empty view (from a wrapping carousel the offset crosses two million points, and views
    /// aimed at where the layout lays out at the offset shown fell behind it).
    @Test func everyFrameOfAnAnimatedChangeShowsItsViews() {
        var empty: [String] = []
        for (fromName, from) in Self.layouts {
            for (toName, to) in Self.layouts where toName != fromName {
                var view = CollectionView(boundsSize: Self.bounds, layout: from, data: items(24))
                view.advance(to: 0.1)
                view.setLayout(to, animation: .default)
                for k in 1...18 {
                    view.advance(to: 0.1 + Double(k) / 60)
                    if Self.shown(view).attributes.isEmpty { empty.append("\(fromName) → \(toName) at frame \(k)"); break }
                }
            }
        }
        let count = empty.count
        #expect(count == 0, "changes with an empty frame:\n\(empty.prefix(20).joined(separator: "\n"))")
    }

    @Test func anAnimatedChangeEndsWhereAFreshSessionIsAtTheSameOffset() { check(animated: true) }
}
