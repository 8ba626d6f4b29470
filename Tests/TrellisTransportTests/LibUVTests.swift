import Testing
import TrellisTransport

/// The system library links (a timer on a real loop is in TimerTests).
@Suite struct LibUVTests {
    @Test func linksAgainstLibUV1() {
        #expect(LibUV.version.hasPrefix("1."))
    }
}
