import Testing
import TrellisCore
import TrellisProtocol
@testable import TrellisClient

/// The terminal viewer's drawing: points to cells, boxes through their transforms, z-order,
/// labels, colours and alpha.
@Suite struct TerminalViewerRasterizerTests {
    let ascii = SceneRasterizer(colorDepth: .none, unicode: false)

    func view(_ id: Int, _ frame: Rect, data: JSONValue? = nil, transform: Transform3D = .identity, alpha: Double = 1,
              zIndex: Int = 0, hidden: Bool = false, reuseId: String = "cell") -> SceneView {
        SceneView(view: ViewID(id), reuseIdentifier: reuseId, element: .cell(0, id), itemID: ItemID("i\(id)"),
                  attributes: LayoutAttributes(element: .cell(0, id), frame: frame, transform: transform, alpha: alpha,
                                               zIndex: zIndex, isHidden: hidden),
                  data: data.map(ItemPayload.init))
    }

    func label(_ text: String) -> JSONValue { .object(["label": .string(text)]) }

    /// 40×20 points on 20×10 cells: 2 points per column, 4 per row (cells twice as tall).
    func draw(_ views: [SceneView], columns: Int = 20, rows: Int = 10, bounds: Size = Size(40, 40)) -> [String] {
        let scene = Scene(time: 0, contentOffset: .zero, contentSize: bounds, boundsSize: bounds, views: views)
        var canvas = TerminalCanvas(columns: columns, rows: rows)
        ascii.draw(scene, mapping: ViewportMapping(visible: Rect(origin: .zero, size: bounds), columns: columns, rows: rows), into: &canvas)
        return (0..<rows).map { r in String(String.UnicodeScalarView((0..<columns).map { canvas[$0, r].character })) }
    }

    /// Labels and colours kept between frames: read again when a view shows another payload or
    /// item (a reused view), dropped with views that left, and drawn as a fresh read would.
    @Test func appearancesFollowTheirViewsAcrossFrames() {
        var appearances = ViewAppearances()
        let first = view(1, Rect(0, 0, 20, 12), data: .object(["label": .string("one"), "color": .string("#ff0000")]))
        #expect(appearances.of(first) == .init(label: "one", color: ViewColor(parsing: "#ff0000")!))
        var reused = first
        reused.data = ItemPayload(label("two"))
        reused.itemID = "i9"
        #expect(appearances.of(reused).label == "two")
        var bare = reused
        bare.data = nil
        #expect(appearances.of(bare).label == "i9")
        #expect(appearances.of(bare).color == ViewColor.of(bare))

        let views = [view(1, Rect(0, 0, 20, 12), data: label("a")), view(2, Rect(20, 0, 20, 12), data: label("b"))]
        let scene = Scene(time: 0, contentOffset: .zero, contentSize: Size(40, 40), boundsSize: Size(40, 40), views: views)
        let mapping = ViewportMapping(visible: Rect(0, 0, 40, 40), columns: 20, rows: 10)
        var kept = TerminalCanvas(columns: 20, rows: 10), fresh = TerminalCanvas(columns: 20, rows: 10)
        ascii.draw(scene, mapping: mapping, appearances: &appearances, into: &kept)
        ascii.draw(scene, mapping: mapping, into: &fresh)
        #expect(kept.lines == fresh.lines)
        #expect(appearances.count == 2)
        let one = Scene(time: 0, contentOffset: .zero, contentSize: Size(40, 40), boundsSize: Size(40, 40), views: [views[1]])
        ascii.draw(one, mapping: mapping, appearances: &appearances, into: &kept)
        #expect(appearances.count == 1)
    }

    @Test func mappingFitsTheVisibleRectKeepingCellsTwiceAsTallAsWide() {
        // 400×312 points into 100×39 cells: 4 points a column, 8 a row, no margins.
        let exact = ViewportMapping(visible: Rect(0, 0, 400, 312), columns: 100, rows: 39)
        #expect(exact.pointsPerColumn == 4 && exact.pointsPerRow == 8)
        #expect(exact.columnOffset == 0 && exact.rowOffset == 0 && exact.visibleColumns == 100 && exact.visibleRows == 39)
        // Flow's middle item of a 400-point row (x 150…250, y 0…80): columns 37.5…62.5, rows 0…10;
        // each corner pulled half a cell inwards.
        #expect(exact.cellBox(Rect(150, 0, 100, 80)) == CellBox(left: 38, top: 0, right: 62, bottom: 9))
        #expect(exact.cellBox(Rect(0, 0, 100, 80)) == CellBox(left: 0, top: 0, right: 24, bottom: 9))
        // A phone (375×812) in 100×39: the height decides (812 / 78 points a column), the width is
        // centred: 36.02 columns of 100 (37 cells touched), 31 whole columns to its left.
        let phone = ViewportMapping(visible: Rect(0, 400, 375, 812), columns: 100, rows: 39)
        #expect(abs(phone.pointsPerColumn - 812.0 / 78) < 1e-12)
        #expect(phone.columnOffset == 31 && phone.visibleColumns == 37 && phone.rowOffset == 0)
        // The content offset is the top-left cell of the visible rect.
        #expect(phone.cellPoint(Point(0, 400)) == CellPoint(31, 0))
    }

    @Test func uprightBoxHasCornersEdgesAndItsCentredLabel() {
        let lines = draw([view(1, Rect(2, 4, 20, 16), data: label("AB"))])
        #expect(lines[0] == String(repeating: " ", count: 20))
        #expect(lines[1] == " +--------+         ")
        #expect(lines[2] == " |        |         ")
        #expect(lines[3] == " |   AB   |         ")
        #expect(lines[4] == " +--------+         ")
        #expect(lines[5] == String(repeating: " ", count: 20))
    }

    @Test func rotationTurnsTheCornersOfTheBox() throws {
        // A 16×16 square at the centre (20, 20) turned 45°: a diamond whose corners point up,
        // right, down and left; its edges are drawn with diagonals.
        let square = view(1, Rect(12, 12, 16, 16), transform: .rotation(angle: .pi / 4, x: 0, y: 0, z: 1))
        let mapping = ViewportMapping(visible: Rect(0, 0, 40, 40), columns: 20, rows: 10)
        let (corners, centre) = try #require(SceneRasterizer.corners(of: square.attributes, mapping: mapping))
        #expect(centre == CellPoint(10, 5))
        // Half-diagonal 11.31 points: ±5.66 columns and ±2.83 rows about (10, 5), each corner
        // pulled half a cell inwards: x 4.84…15.16, y 2.67…7.33, in cells [i, i + 1).
        #expect(corners.map { [$0.column, $0.row] } == [[10, 2], [15, 5], [10, 7], [4, 5]])
        let lines = draw([square])
        #expect(Array(lines[2].unicodeScalars)[10] == "+")
        #expect(Array(lines[5].unicodeScalars)[15] == "+" && Array(lines[5].unicodeScalars)[4] == "+")
        #expect(Array(lines[3].unicodeScalars)[12] == "\\" || Array(lines[3].unicodeScalars)[11] == "\\")
        #expect(lines[3].contains("/") && lines[6].contains("/") && lines[6].contains("\\"))
        #expect(!lines.joined().contains("-") && !lines.joined().contains("|"))
    }

    @Test func aCoverFlowCarouselDrawsItsSideCoversInPerspective() throws {
        // iCarousel's CoverFlow at item 4 of 9 in 320×240 points on 80×30 cells: the centred
        // cover faces the viewer (an upright box with its label), the ones beside it are turned
        // 81° about y under m34 = −1/500 to face the centre, so their outer edge is the nearer,
        // taller one.
        var carousel = CarouselLayout(style: .coverFlow, itemSize: Size(120, 120))
        carousel.visibleItems = 9
        var view = CollectionView(boundsSize: Size(320, 240), layout: carousel, data: .generated(count: 9))
        view.setContentOffset(Point(4 * 60, 0))
        let scene = view.scene
        let mapping = ViewportMapping(visible: Rect(origin: scene.contentOffset, size: scene.boundsSize), columns: 80, rows: 30)
        let centre = try #require(scene.views.first { $0.element.indexPath.item == 4 })
        let (upright, _) = try #require(SceneRasterizer.corners(of: centre.attributes, mapping: mapping))
        #expect(upright[0].row == upright[1].row && upright[2].row == upright[3].row && upright[0].column == upright[3].column)
        let side = try #require(scene.views.first { $0.element.indexPath.item == 5 })
        let (turned, _) = try #require(SceneRasterizer.corners(of: side.attributes, mapping: mapping))
        // Clockwise from the top-left: the right (outer, near) edge spans more rows than the left one.
        #expect(turned[2].row - turned[1].row > turned[3].row - turned[0].row)
        // The nearest cover is drawn last, over its neighbours: its label shows whole.
        var canvas = TerminalCanvas(columns: 80, rows: 30)
        ascii.draw(scene, mapping: mapping, into: &canvas)
        let text = (0..<30).map { r in String(String.UnicodeScalarView((0..<80).map { canvas[$0, r].character })) }
        #expect(text.contains { $0.contains("i4") })
    }

    @Test func depthIsSplitInThirdsOfItsSpanAndAFlatSceneHasNone() {
        // 0 nearest, −300 farthest: near from −100 up, far below −200.
        #expect(DepthCue.cues(for: [0, -99, -100, -101, -199, -200, -201, -300])
                == [.near, .near, .near, .middle, .middle, .middle, .far, .far])
        // Less than 10 points of depth: nothing to show (a task switcher's cards lie a point apart).
        #expect(DepthCue.cues(for: [0, -5, -9.9]) == [.middle, .middle, .middle])
        #expect(DepthCue.cues(for: []) == [])
        // The z of the centre is the transform's m43 (+z towards the eye).
        #expect(DepthCue.depth(of: view(1, Rect(0, 0, 10, 10), transform: .translation(x: 3, y: 4, z: -70)).attributes) == -70)
        #expect(DepthCue.depth(of: view(1, Rect(0, 0, 10, 10)).attributes) == 0)
    }

    /// iCarousel's rotary ring seen from above, as the demo shows it: the cards in front are
    /// drawn heavy, those at the back light and dashed, and the front card covers what is
    /// behind it, its label whole.
    func rotaryScene() -> Scene {
        var carousel = CarouselLayout(style: .rotary, itemSize: Size(60, 56))
        carousel.count = 14
        carousel.wrap = false
        carousel.viewpointOffset = Point(0, -80)
        carousel.perspective = -1 / 288
        return CollectionView(boundsSize: Size(480, 264), layout: carousel, data: .generated(count: 14)).scene
    }

    @Test func aRotaryCarouselsFrontCardsAreHeavyAndItsBackOnesLight() throws {
        let scene = rotaryScene()
        let mapping = ViewportMapping(visible: Rect(origin: scene.contentOffset, size: scene.boundsSize), columns: 80, rows: 22)
        var canvas = TerminalCanvas(columns: 80, rows: 22)
        SceneRasterizer(colorDepth: .palette256, unicode: true).draw(scene, mapping: mapping, into: &canvas)
        let text = canvas.lines.joined(separator: "\n")
        // Item 0 faces the eye at the front, item 7 is at the back.
        let front = try #require(scene.views.first { $0.element.indexPath.item == 0 })
        let back = try #require(scene.views.first { $0.element.indexPath.item == 7 })
        #expect(DepthCue.depth(of: front.attributes) > DepthCue.depth(of: back.attributes) + 100)
        let (frontCorners, _) = try #require(SceneRasterizer.corners(of: front.attributes, mapping: mapping))
        let (backCorners, _) = try #require(SceneRasterizer.corners(of: back.attributes, mapping: mapping))
        // The front card: heavy corners, bold strokes, its label whole.
        #expect(canvas[frontCorners[0].column, frontCorners[0].row].character == "┏", "\(text)")
        #expect(canvas[frontCorners[2].column, frontCorners[2].row].character == "┛")
        #expect(canvas[frontCorners[0].column + 1, frontCorners[0].row].style.intensity == .bold)
        #expect(text.contains("i0"))
        // The back card shows above the front ones (the eye is raised): light and dim.
        let top = backCorners[0]
        #expect(top.row < frontCorners[0].row)
        #expect(canvas[top.column + 1, top.row].character == "╌", "\(text)")
        #expect(canvas[top.column + 1, top.row].style.intensity == .dim)
        #expect(text.contains("━") && text.contains("╌"))
        // ASCII terminals get the heavy cue as = and # (and the light one as ~).
        var plain = TerminalCanvas(columns: 80, rows: 22)
        ascii.draw(scene, mapping: mapping, into: &plain)
        #expect(plain[frontCorners[0].column, frontCorners[0].row].character == "#")
        #expect(plain[frontCorners[0].column + 1, frontCorners[0].row].character == "=")
        #expect(plain[top.column + 1, top.row].character == "~")
    }

    @Test func aFlatSceneIsDrawnAsBeforeWhateverItsTransforms() {
        // A line layout's zoom and a dynamic item's turn have no depth: no heavy or light strokes.
        let zoomed = view(1, Rect(4, 4, 16, 16), transform: .scale(x: 1.5, y: 1.5))
        let turned = view(2, Rect(24, 20, 12, 12), transform: .rotation(angle: 0.3, x: 0, y: 0, z: 1))
        let lines = draw([zoomed, turned]).joined()
        #expect(lines.contains("+") && lines.contains("-") && !lines.contains("=") && !lines.contains("#") && !lines.contains("~"))
    }

    @Test func scaleGrowsTheBoxAboutItsCentre() {
        let plain = draw([view(1, Rect(16, 16, 8, 8))])
        let scaled = draw([view(1, Rect(16, 16, 8, 8), transform: .scale(x: 3, y: 3))])
        func width(_ lines: [String]) -> Int { lines.map { $0.filter { $0 != " " }.count }.max() ?? 0 }
        func height(_ lines: [String]) -> Int { lines.filter { $0.contains("+") || $0.contains("|") }.count }
        // 8 points are 4 columns and 2 rows; three times that is 12 columns and 6 rows.
        #expect(width(plain) == 4 && height(plain) == 2)
        #expect(width(scaled) == 12 && height(scaled) == 6)
        #expect(scaled[2] == "    +----------+    ")
    }

    @Test func higherZIndexIsDrawnLastWhateverTheOrder() {
        // The front view comes first in the list but has the higher zIndex: it covers the back one.
        let front = view(1, Rect(10, 8, 20, 16), data: label("F"), zIndex: 1)
        let back = view(2, Rect(0, 0, 40, 40), data: label("B"))
        let lines = draw([front, back])
        // Front: columns 5…14, rows 2…5, its inside cleared; the back view's label (row 5,
        // column 9) lies under the front's bottom edge.
        #expect(lines[2] == "|    +--------+    |")
        #expect(lines[3] == "|    |        |    |")
        #expect(lines[4] == "|    |   F    |    |")
        #expect(lines[5] == "|    +--------+    |")
        #expect(!lines.joined().contains("B"))
        // The same views with the zIndex the other way round: the back one covers everything.
        var behind = front
        behind.attributes.zIndex = -1
        #expect(draw([behind, back])[4] == "|                  |")
    }

    @Test func labelsComeFromDataThenTheItemIdThenTheKind() {
        #expect(view(1, .zero, data: label("hello")).displayLabel == "hello")
        #expect(view(1, .zero, data: .object(["label": .number(42)])).displayLabel == "42")
        #expect(view(7, .zero, data: .object(["color": .string("red")])).displayLabel == "i7")
        let header = SceneView(view: ViewID(3), reuseIdentifier: "header", element: ElementID(kind: .supplementary("header"), indexPath: IndexPath(0, 0)),
                               itemID: nil, attributes: LayoutAttributes(element: .cell(0, 0), frame: .zero), data: nil)
        #expect(header.displayLabel == "header")
        // A label wider than the box is cut; wide characters become one-cell placeholders.
        let lines = draw([view(1, Rect(0, 0, 12, 12), data: label("abcdefgh"))])
        #expect(lines[1].hasPrefix("|abcd|"))
        #expect(TerminalText.cells("a中b\u{301}") == ["a", "?", "b"])
    }

    @Test func coloursComeFromDataOrAreHashedFromTheReuseId() {
        #expect(TerminalColor(ViewColor(parsing: "red")!, depth: .palette256) == .palette(196))
        #expect(TerminalColor(ViewColor(parsing: "#00ff00")!, depth: .palette256) == .palette(46))
        #expect(TerminalColor(ViewColor(parsing: "#808080")!, depth: .palette256) == .palette(244))
        #expect(TerminalColor(ViewColor(parsing: "red")!, depth: .ansi16) == .ansi(9))
        #expect(TerminalColor(ViewColor(parsing: "navy")!, depth: .ansi16) == .ansi(4))
        #expect(TerminalColor(ViewColor(parsing: "red")!, depth: .none) == nil)
        #expect(TerminalColor.palette(196).foregroundParameters == "38;5;196")
        #expect(TerminalColor.ansi(9).foregroundParameters == "91")
        // Drawn: the stroke and label of a view carry its colour.
        let colored = SceneRasterizer(colorDepth: .palette256, unicode: true)
        var canvas = TerminalCanvas(columns: 20, rows: 10)
        let bounds = Rect(0, 0, 40, 40)
        let scene = Scene(time: 0, contentOffset: .zero, contentSize: bounds.size, boundsSize: bounds.size, views: [
            view(1, Rect(0, 0, 16, 16), data: .object(["label": .string("x"), "color": .string("#0000ff")])),
            view(2, Rect(20, 20, 16, 16), reuseId: "tile"),
        ])
        colored.draw(scene, mapping: ViewportMapping(visible: bounds, columns: 20, rows: 10), into: &canvas)
        #expect(canvas[0, 0].character == "┌" && canvas[0, 0].style.foreground == .palette(21))
        let hashed = TerminalColor(ViewColor.hashed("tile"), depth: .palette256)
        #expect(canvas[10, 5].character == "┌" && canvas[10, 5].style.foreground == hashed)
        #expect(ColorDepth.detect(["TERM": "xterm-256color"]) == .palette256)
        #expect(ColorDepth.detect(["TERM": "screen"]) == .ansi16)
        #expect(ColorDepth.detect(["TERM": "xterm-256color", "NO_COLOR": "1"]) == .none)
    }

    @Test func alphaIsTheWeightOfTheStrokes() {
        let box = Rect(0, 0, 16, 16)
        #expect(draw([view(1, box, alpha: 1)])[0].hasPrefix("+------+"))
        #expect(draw([view(1, box, alpha: 0.5)])[0].hasPrefix("+~~~~~~+"))
        #expect(draw([view(1, box, alpha: 0.2)])[0].hasPrefix("........"))
        #expect(draw([view(1, box, alpha: 0.005)]).joined().allSatisfy { $0 == " " })
        #expect(draw([view(1, box, hidden: true)]).joined().allSatisfy { $0 == " " })
        var canvas = TerminalCanvas(columns: 20, rows: 10)
        let scene = Scene(time: 0, contentOffset: .zero, contentSize: Size(40, 40), boundsSize: Size(40, 40), views: [view(1, box, alpha: 0.5)])
        SceneRasterizer(colorDepth: .none, unicode: true).draw(scene, mapping: ViewportMapping(visible: Rect(0, 0, 40, 40), columns: 20, rows: 10), into: &canvas)
        #expect(canvas[1, 0].character == "╌" && canvas[1, 0].style.intensity == .dim)
    }

    @Test func viewsOutsideTheVisibleRectAreClipped() {
        // Scrolled down 20 points: a box at the top of the content is half gone.
        let scene = Scene(time: 0, contentOffset: Point(0, 20), contentSize: Size(40, 80), boundsSize: Size(40, 40),
                          views: [view(1, Rect(0, 0, 16, 32), data: label("Q"))])
        var canvas = TerminalCanvas(columns: 20, rows: 10)
        ascii.draw(scene, mapping: ViewportMapping(visible: Rect(0, 20, 40, 40), columns: 20, rows: 10), into: &canvas)
        #expect(canvas.lines[0] == "|      |")
        #expect(canvas.lines[2] == "+------+")
        #expect(canvas.lines[3] == "")
    }

    /// A compositional band scrolled across, as the viewer gets it: the band's cells come
    /// shifted by its offset and the first is cut at the view's left edge (the band spans the
    /// view), while the section below stays put. 375 × 150 points on 75 × 15 cells: 5 points a
    /// column, 10 a row. The band: insets 10, cells 100 × 100, 10 apart; scrolled 55, cell 0
    /// spans x −45…55 (columns 0…11, its left edge off screen), cell 1 65…165 (columns 13…33).
    @Test func aScrolledBandIsDrawnShiftedAndCutAtTheViewsEdge() throws {
        let full = CompositionalSize(width: .fractionalWidth(1), height: .fractionalHeight(1))
        let strip = CompositionalSection(name: "strip", group: .horizontal(CompositionalSize(width: .absolute(100), height: .absolute(100)), [.item(CompositionalItem(size: full))]),
                                         contentInsets: EdgeInsets(all: 10), interGroupSpacing: 10, orthogonalScrollingBehavior: .continuous)
        var view = CollectionView(boundsSize: Size(375, 150), layout: CompositionalLayout(CompositionalDescription(sections: [strip])),
                                  data: .generated(count: 10))
        let mapping = ViewportMapping(visible: Rect(0, 0, 375, 150), columns: 75, rows: 15)
        func drawn() -> [String] {
            var canvas = TerminalCanvas(columns: 75, rows: 15)
            ascii.draw(view.scene, mapping: mapping, into: &canvas)
            return canvas.lines
        }
        let atRest = drawn()
        try view.setOrthogonalOffset(55, section: 0, animated: false)
        #expect(view.scene.orthogonalOffsets == [0: 55])
        let scrolled = drawn()
        // Unscrolled, cell 0's top-left corner is at column 2; scrolled, its top edge runs in
        // from the left edge with no corner, and cell 1's corner is at column 13.
        #expect(atRest[1].hasPrefix("  +"))
        #expect(scrolled[1].hasPrefix("-"))
        #expect(Array(scrolled[1])[13] == "+")
        // Every row of the band moved: the picture is not the one at rest.
        #expect(scrolled != atRest)
    }
}

/// The viewer's mirror, keys, status and screen output.
@Suite struct TerminalViewerStateTests {
    func scene(_ views: [SceneView]) -> Scene {
        Scene(time: 0, contentOffset: .zero, contentSize: Size(100, 100), boundsSize: Size(100, 100), views: views)
    }
    func cell(_ id: Int, x: Double) -> SceneView {
        SceneView(view: ViewID(id), reuseIdentifier: "cell", element: .cell(0, id), itemID: ItemID("i\(id)"),
                  attributes: LayoutAttributes(element: .cell(0, id), frame: Rect(x, 0, 10, 10)), data: nil)
    }

    @Test func mirrorAppliesDeltasCountsSkippedFramesAndRefusesOnesThatDoNotFit() {
        var mirror = ViewerMirror(keyframe: scene([cell(1, x: 0)]), seq: 4)
        var move = SceneDelta(time: 0.1)
        var change = SceneDelta.ChangedView(view: ViewID(1))
        change.frame = Rect(50, 0, 10, 10)
        move.changed = [change]
        // A jump from 4 to 7: the server computed it against what we hold, so it applies.
        #expect(mirror.apply(move, seq: 7) == .applied)
        #expect(mirror.seq == 7 && mirror.skippedFrames == 2)
        #expect(mirror.scene.views.first?.attributes.frame == Rect(50, 0, 10, 10))
        #expect(mirror.apply(move, seq: 7) == .stale)
        var unknown = SceneDelta(time: 0.2)
        unknown.changed = [SceneDelta.ChangedView(view: ViewID(9))]
        guard case .needsKeyframe = mirror.apply(unknown, seq: 8) else {
            Issue.record("a change to an unknown view must ask for a keyframe")
            return
        }
        #expect(mirror.seq == 7)
        // Unbound views stay known, as pooled.
        var unbind = SceneDelta(time: 0.3)
        unbind.unbound = [ViewID(1)]
        #expect(mirror.apply(unbind, seq: 8) == .applied)
        #expect(mirror.boundCount == 0 && mirror.pooledCount == 1)
        // Bound again later; binding a view never created is refused.
        var rebind = SceneDelta(time: 0.4)
        rebind.bound = [SceneDelta.BoundView(view: cell(1, x: 20), order: 0)]
        #expect(mirror.apply(rebind, seq: 9) == .applied)
        var stranger = SceneDelta(time: 0.5)
        stranger.bound = [SceneDelta.BoundView(view: cell(5, x: 20), order: 1)]
        #expect(mirror.apply(stranger, seq: 10) != .applied)
    }

    @Test func keysDecodeFromRawTerminalBytes() {
        let bytes: [UInt8] = Array("q".utf8) + [0x1b, 0x5b, 0x41] + [0x1b, 0x4f, 0x42] + Array("\u{1b}[5~\u{1b}[6~j".utf8) + [0x03, 0x1b]
        #expect(TerminalKey.decode(bytes) == [.character("q"), .up, .down, .pageUp, .pageDown, .character("j"), .interrupt, .escape])
    }

    @Test func statusLineNamesTheFigures() {
        var status = ViewerStatus(session: "s")
        status.seq = 12; status.framesPerSecond = 60; status.bound = 9; status.pooled = 2; status.created = 11; status.reused = 3
        #expect(status.line(width: 100).hasPrefix(" s · seq 12 · 60 fps · views 9 · pooled 2 · created 11 · reused 3 · q quits"))
        status.note = "a note"
        #expect(status.line(width: 80).hasPrefix(" s · seq 12 · 60 fps · views 9 · pooled 2 · created 11 · reused 3 · a note "))
        #expect(status.line(width: 10).unicodeScalars.count == 10)
        var meter = FrameRateMeter()
        for t in stride(from: 0.0, to: 2.0, by: 0.1) { meter.record(at: t) }
        #expect(meter.rate(now: 1.95) == 10)
        #expect(meter.rate(now: 5) == 0)
    }

    @Test func screenRewritesOnlyRowsThatChanged() {
        var screen = TerminalScreen()
        var canvas = TerminalCanvas(columns: 4, rows: 3)
        canvas.write("ab", column: 0, row: 0, style: .plain)
        let first = screen.update(to: canvas)
        #expect(first.contains("\u{1b}[2J") && first.contains("\u{1b}[1;1H") && first.contains("\u{1b}[3;1H"))
        canvas.write("x", column: 1, row: 1, style: CellStyle(foreground: .ansi(1)))
        let second = screen.update(to: canvas)
        #expect(!second.contains("\u{1b}[2J") && !second.contains("\u{1b}[1;1H") && second.contains("\u{1b}[2;1H"))
        #expect(second.contains("\u{1b}[0;31mx"))
        #expect(screen.update(to: canvas).isEmpty)
    }
}
