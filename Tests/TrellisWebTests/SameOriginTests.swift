import Hummingbird
import Testing
@testable import TrellisWeb

/// Which pages may use trellis-web (the WebSocket above all).
@Suite struct SameOriginTests {
    @Test func theServedPageAndNonBrowsersMayUpgradeOtherSitesMayNot() {
        #expect(SameOrigin.allows(origin: "http://127.0.0.1:8080", host: "127.0.0.1:8080"))
        #expect(SameOrigin.allows(origin: "HTTP://LocalHost:9000", host: "localhost:9000"))
        #expect(SameOrigin.allows(origin: nil, host: "127.0.0.1:8080"))
        #expect(SameOrigin.allows(origin: "ws://127.0.0.1", host: "127.0.0.1:8080"))
        #expect(!SameOrigin.allows(origin: "http://evil.example", host: "127.0.0.1:8080"))
        #expect(!SameOrigin.allows(origin: "http://127.0.0.1:9999", host: "127.0.0.1:8080"))
        #expect(!SameOrigin.allows(origin: "null", host: "127.0.0.1:8080"))
        #expect(!SameOrigin.allows(origin: "http://127.0.0.1:8080", host: nil))
    }

    /// A handshake as a browser sends it, from `origin`: the status of the server's answer.
    static func handshakeStatus(port: Int, path: String, origin: String) async throws -> Int {
        try await PlainHTTP.get(port: port, path: path, headers: [
            ("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Version", "13"),
            ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="), ("Origin", origin),
        ], headOnly: true).status
    }

    @Test func aWebSocketFromAnotherSiteIsRefused() async throws {
        let viewer = try await RunningWebViewer.start(socketPath: "/nonexistent/trellis.sock", defaultSession: "web")
        let statuses = await outcome {
            let path = viewer.authorized("/ws")
            return try await [Self.handshakeStatus(port: viewer.port, path: path, origin: "http://127.0.0.1:\(viewer.port)"),
                              Self.handshakeStatus(port: viewer.port, path: path, origin: "http://evil.example"),
                              Self.handshakeStatus(port: viewer.port, path: path, origin: "null")]
        }
        await viewer.stop()
        let (own, other, null) = try { let s = try statuses.get(); return (s[0], s[1], s[2]) }()
        #expect(own == 101)
        #expect(other == 403)
        #expect(null == 403)
    }

    @Test func loopbackNamesAreToldFromOthers() {
        for host in ["127.0.0.1", "127.0.0.1:8080", "localhost:1", "LOCALHOST", "[::1]", "[::1]:8080"] {
            #expect(AccessPolicy.isLoopback(host: host), "\(host)")
        }
        for host in ["evil.example", "127.0.0.1.evil.example", "localhost.evil.example:80", "[::1]x", "10.0.0.1:8080",
                     "127.0.0.1:80:80", "", "[::2]:80", "localhost:8o"] {
            #expect(!AccessPolicy.isLoopback(host: host), "\(host)")
        }
    }
}
