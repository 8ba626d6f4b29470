import Testing
import TrellisClient
import TrellisCore
import TrellisProtocol

/// Colours of views: what `data.color` may say, and the stable fallback per reuse identifier.
@Suite struct ViewColorTests {
    @Test func parsesNamesAndHexForms() {
        #expect(ViewColor(parsing: "red") == ViewColor(red: 255, green: 0, blue: 0))
        #expect(ViewColor(parsing: " Grey\t") == ViewColor(red: 128, green: 128, blue: 128))
        #expect(ViewColor(parsing: "#0aF") == ViewColor(red: 0, green: 0xaa, blue: 0xff))
        #expect(ViewColor(parsing: "#12ab9C") == ViewColor(red: 0x12, green: 0xab, blue: 0x9c))
        for bad in ["", "#", "#12", "#1234", "#12345g", "12ab9c", "reddish", "#+1+2+3"] {
            #expect(ViewColor(parsing: bad) == nil, "\(bad)")
        }
        #expect(ViewColor(red: 1, green: 0xab, blue: 255).hex == "#01abff")
    }

    @Test func hashedColourIsStableAndTellsReuseIdentifiersApart() {
        // FNV-1a, not Swift's per-process seeded Hasher: the same colour in every run.
        // FNV-1a of "cell" is 0x68dc9cb5, hue 181°, then HSL(181°, 55%, 65%) (checked with
        // Python's colorsys).
        #expect(ViewColor.hashed("cell").hex == "#75d5d7")
        let ids = ["cell", "header", "footer", "background", "photo"]
        #expect(Set(ids.map { ViewColor.hashed($0) }).count == ids.count)
        // Light mid-tones whatever the hue: never a near-black box.
        for id in ids { #expect(ViewColor.hashed(id).luminance > 0.4) }
    }

    @Test func hslCornersAreThePrimaries() {
        #expect(ViewColor(hue: 0, saturation: 1, lightness: 0.5) == ViewColor(red: 255, green: 0, blue: 0))
        #expect(ViewColor(hue: 120, saturation: 1, lightness: 0.5) == ViewColor(red: 0, green: 255, blue: 0))
        #expect(ViewColor(hue: 240, saturation: 1, lightness: 0.5) == ViewColor(red: 0, green: 0, blue: 255))
        #expect(ViewColor(hue: -120, saturation: 1, lightness: 0.5) == ViewColor(red: 0, green: 0, blue: 255))
    }

    @Test func viewsTakeDataColourElseTheirReuseIdentifiersColour() {
        let element = ElementID.cell(0, 0)
        func view(_ data: JSONValue?) -> SceneView {
            SceneView(view: ViewID(1), reuseIdentifier: "photo", element: element, itemID: "a",
                      attributes: LayoutAttributes(element: element, frame: Rect(0, 0, 1, 1)), data: data.map(ItemPayload.init))
        }
        #expect(ViewColor.of(view(.object(["color": .string("navy")]))) == ViewColor(red: 0, green: 0, blue: 128))
        #expect(ViewColor.of(view(.object(["color": .number(3)]))) == ViewColor.hashed("photo"))
        #expect(ViewColor.of(view(nil)) == ViewColor.hashed("photo"))
    }
}
