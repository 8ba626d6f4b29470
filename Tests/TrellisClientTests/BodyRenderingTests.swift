import Testing
import TrellisClient
import TrellisCore
import TrellisProtocol

/// Free bodies (element kind "body") in the pictures every viewer draws: labelled by their
/// data, else their name, never as a cell.
@Suite struct BodyRenderingTests {
    func body(_ number: Int, name: String?, data: JSONValue? = nil) -> SceneView {
        let element = ElementID.body(number)
        return SceneView(view: ViewID(10 + number), reuseIdentifier: "body", element: element, itemID: name.map { ItemID($0) },
                         attributes: LayoutAttributes(element: element, frame: Rect(137.5, 567, 100, 100)), data: data.map(ItemPayload.init))
    }

    @Test func aBodyIsLabelledByItsDataElseItsNameElseItsKind() {
        #expect(body(0, name: "card", data: .object(["label": .string("drop")])).displayLabel == "drop")
        #expect(body(0, name: "card").displayLabel == "card")
        #expect(body(0, name: nil).displayLabel == "body")
    }

    @Test func theSVGMarksABodyAsOne() throws {
        let scene = Scene(time: 0, contentOffset: .zero, contentSize: Size(375, 667), boundsSize: Size(375, 667),
                          views: [body(1, name: "card", data: .object(["color": .string("orange")]))])
        let svg = try ParsedSVG(SVGRenderer(session: "drop").render(scene))
        let view = try #require(svg.views.first)
        #expect(view.attributes["data-kind"] == "body" && view.attributes["data-body"] == "card")
        #expect(view.attributes["data-item"] == nil)
        #expect(view.label == "card")
        #expect(view.fill == ViewColor(parsing: "orange")?.hex)
        #expect(cornersMatch(view.corners, [Point(137.5, 567), Point(237.5, 567), Point(237.5, 667), Point(137.5, 667)]))
    }
}
