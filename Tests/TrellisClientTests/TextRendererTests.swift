import Testing
import TrellisCore
@testable import TrellisClient
import TrellisProtocol

@Suite struct TextRendererTests {
    func scene(_ views: [SceneView], offset: Point = .zero) -> Scene {
        Scene(time: 0, contentOffset: offset, contentSize: Size(100, 100), boundsSize: Size(100, 50), views: views)
    }
    func view(_ id: Int, _ frame: Rect, label: String? = nil, transform: Transform3D = .identity, alpha: Double = 1) -> SceneView {
        SceneView(view: ViewID(id), reuseIdentifier: "cell", element: .cell(0, id), itemID: ItemID("i\(id)"),
                  attributes: LayoutAttributes(element: .cell(0, id), frame: frame, transform: transform, alpha: alpha),
                  data: label.map { ItemPayload(.object(["label": .string($0)])) })
    }

    @Test func drawsABoxWithItsLabel() {
        // 1 character per 10 points across, per 10 points down.
        let lines = TextRenderer(columns: 10, rows: 5).render(scene([view(1, Rect(0, 0, 60, 30), label: "A")]))
        #expect(lines == [
            "+----+    ",
            "| A  |    ",   // centred, rounding left
            "+----+    ",
            "          ",
            "          ",
        ])
    }

    @Test func frontViewCoversTheOneBehindAndOffsetScrolls() {
        let back = view(1, Rect(0, 0, 50, 50), label: "B")
        let front = view(2, Rect(30, 10, 50, 30), label: "F")
        let lines = TextRenderer(columns: 10, rows: 5).render(scene([back, front]))
        #expect(lines[2] == "| B| F |  ")
        let scrolled = TextRenderer(columns: 10, rows: 5).render(scene([back], offset: Point(0, 20)))
        #expect(scrolled[2] == "+---+     ")
    }

    @Test func rotationTurnsTheBox() {
        // A 24×80 bar standing at (50, 25), turned 90°: it lies flat, 80 wide and 24 tall.
        let bar = view(1, Rect(38, -15, 24, 80), transform: .rotation(angle: .pi / 2, x: 0, y: 0, z: 1))
        let lines = TextRenderer(columns: 10, rows: 5).render(scene([bar]))
        #expect(lines == [
            "          ",
            " +------+ ",
            " |  i1  | ",
            " +------+ ",
            "          ",
        ])
    }

    @Test func faintAndHiddenViews() {
        let faint = view(1, Rect(0, 0, 40, 30), alpha: 0.2)
        var hidden = view(2, Rect(50, 0, 40, 30))
        hidden.attributes.isHidden = true
        let lines = TextRenderer(columns: 10, rows: 5).render(scene([faint, hidden]))
        #expect(lines[0] == "....      ")
    }
}
