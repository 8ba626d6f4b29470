import Testing
@testable import TrellisClient

@Suite struct ServerAddressTests {
    @Test func explicitSocketWinsOverEnvironment() {
        #expect(ServerAddress(explicit: "/a.sock", environment: ["TRELLIS_SOCKET": "/b.sock"], uid: 1).path == "/a.sock")
    }

    @Test func fallsBackToTheDefaultRules() {
        #expect(ServerAddress(explicit: nil, environment: ["TRELLIS_SOCKET": "/b.sock"], uid: 1).path == "/b.sock")
        #expect(ServerAddress(explicit: "", environment: [:], uid: 7).path == "/tmp/trellis-7/default.sock")
    }
}
