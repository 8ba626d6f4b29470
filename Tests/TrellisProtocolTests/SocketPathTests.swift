import Testing
@testable import TrellisProtocol

@Suite struct SocketPathTests {
    @Test func explicitEnvironmentWins() {
        #expect(SocketPath.resolve(environment: ["TRELLIS_SOCKET": "/x/s.sock", "XDG_RUNTIME_DIR": "/run/user/1"], uid: 1) == "/x/s.sock")
    }

    @Test func runtimeDirectoryNext() {
        #expect(SocketPath.resolve(environment: ["XDG_RUNTIME_DIR": "/run/user/1000/"], uid: 1000) == "/run/user/1000/trellis/default.sock")
    }

    @Test func tmpByUidLast() {
        #expect(SocketPath.resolve(environment: ["TRELLIS_SOCKET": ""], uid: 42) == "/tmp/trellis-42/default.sock")
    }

    @Test func directoryOfPath() {
        #expect(SocketPath.directory(of: "/tmp/trellis-42/default.sock") == "/tmp/trellis-42")
        #expect(SocketPath.directory(of: "/s.sock") == "/")
        #expect(SocketPath.directory(of: "s.sock") == ".")
    }
}
