import Testing
import TrellisCore

@testable import TrellisProtocol

/// JSON has no NaN or infinity: every way a number reaches a buffer notes one, so the senders
/// and the persistence can refuse the buffer instead of sending `null` for a number.
@Suite("Non-finite numbers are noted")
struct NonFiniteRefusalTests {
    @Test(arguments: [Double.nan, .infinity, -.infinity, -.nan])
    func writeNumberNotesThem(_ value: Double) {
        var buffer = ByteBuffer()
        JSONWriter.writeNumber(1.5, into: &buffer)
        #expect(!buffer.holdsNonFiniteNumber)
        JSONWriter.writeNumber(value, into: &buffer)
        #expect(buffer.holdsNonFiniteNumber)
        buffer.clear()
        #expect(!buffer.holdsNonFiniteNumber)
    }

    @Test func aValueDeepInsideATreeIsNoted() {
        let tree: JSONValue = .object(["a": .array([.number(1), .object(["b": .number(.infinity)])])])
        var buffer = ByteBuffer()
        JSONWriter.write(tree, into: &buffer)
        #expect(buffer.holdsNonFiniteNumber)
        var finite = ByteBuffer()
        JSONWriter.write(.object(["a": .array([.number(1e308), .number(-5e-324)])]), into: &finite)
        #expect(!finite.holdsNonFiniteNumber)
    }

    @Test(arguments: [0, 3, 6])
    func roundedNumbersNoteThem(_ places: Int) {
        var buffer = ByteBuffer()
        JSONWriter.writeRounded(.nan, places: places, into: &buffer)
        #expect(buffer.holdsNonFiniteNumber)
        var finite = ByteBuffer()
        JSONWriter.writeRounded(1e300, places: places, into: &finite)
        #expect(!finite.holdsNonFiniteNumber)
    }

    @Test func appendingABufferCarriesTheNote() {
        var inner = ByteBuffer()
        JSONWriter.writeNumber(.nan, into: &inner)
        var outer = ByteBuffer()
        outer.append(inner)
        #expect(outer.holdsNonFiniteNumber)
    }

    @Test func aFrameWithANaNFrameIsNoted() {
        func frame(_ x: Double) -> ByteBuffer {
            let view = SceneView(view: ViewID(1), reuseIdentifier: "cell", element: .cell(0, 0), itemID: "a",
                                 attributes: LayoutAttributes(element: .cell(0, 0), frame: Rect(x: x, y: 0, width: 10, height: 10)),
                                 data: nil)
            var writer = FrameWriter()
            writer.begin(time: 0, contentOffset: Point(x: 0, y: 0), contentSize: nil, boundsSize: nil)
            writer.bound(view, order: 0)
            var b = ByteBuffer()
            var o = JSONObjectWriter(into: &b)
            writer.write(&o, into: &b)
            o.end(into: &b)
            return b
        }
        #expect(!frame(12.25).holdsNonFiniteNumber)
        #expect(frame(.nan).holdsNonFiniteNumber)
        #expect(frame(.infinity).holdsNonFiniteNumber)
    }
}
