import Testing
import TrellisCore

/// A free body's element carries its number, and only a body's does.
@Suite struct ElementIDTests {
    @Test func aBodysNumberIsReadBackAndNoOtherElementHasOne() {
        #expect(ElementID.body(7).bodyNumber == 7)
        #expect(ElementID.body(0).bodyNumber == 0)
        #expect(ElementID.cell(0, 7).bodyNumber == nil)
        #expect(ElementID.header(7).bodyNumber == nil)
        #expect(ElementID.body(7) != ElementID.cell(0, 7))
    }
}
