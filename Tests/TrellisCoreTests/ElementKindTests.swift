import Testing
@testable import TrellisCore

@Suite struct ElementKindTests {
    /// Interned names behave as their text: equal text is the same kind, order is the text's
    /// whatever order the names were first seen in, and the text comes back.
    @Test func kindNamesActAsTheirText() {
        let late = ElementKindName("zz-kind-\(#line)"), early = ElementKindName("aa-kind-\(#line)")
        #expect(early < late && !(late < early) && !(early < early))
        #expect(ElementKindName(late.rawValue) == late)
        #expect(ElementKind.header == .supplementary(ElementKindName(String("head" + "er"))))
        #expect(ElementKind.supplementary("footer") == .footer)
        #expect(ElementKind.supplementary("footer") != .decoration("footer"))
        #expect(ElementKind.supplementary(early) < ElementKind.supplementary(late))
        #expect(ElementKind.cell < ElementKind.header)
        #expect(ElementKind.decoration("background").elementKind == "background")
        #expect("\(ElementKind.header)" == "supplementary(header)")
    }
}
