import Foundation
import Testing
import TrellisTestSupport
import TrellisProtocol

/// Who trellis-web lets in (issue 24): a token always, made when none is given and kept in a
/// cookie once a URL carried it; a refusal says why, the WebSocket's too; duplicate Host
/// headers are refused; a bind address that cannot be used is said plainly.
@Suite struct WebAccessTests {
    static let upgrade: [(String, String)] = [
        ("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Version", "13"),
        ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
    ]

    /// The value of the response header `name` (case-insensitive), nil when absent.
    static func header(_ name: String, in head: String) -> String? {
        for line in head.split(separator: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == name.lowercased() { return parts[1].trimmingCharacters(in: .whitespaces) }
        }
        return nil
    }

    /// Without --token a random 128-bit one is made and printed; a request with it in the URL
    /// gets a cookie, and the cookie alone then opens the page, the list and the WebSocket.
    @Test func aTokenIsMadeAndKeptInACookie() async throws {
        let viewer = try await RunningWebViewer.start(socketPath: "/nonexistent/trellis.sock", defaultSession: "web")
        let port = viewer.port
        let token = viewer.token ?? ""
        let cookie = "trellis-web-token-\(port)=\(token)"
        // The token with its last digit changed (to "0", or to "1" when it already ends in "0":
        // replacing it with "0" alone left it valid one time in sixteen).
        let wrong = token.dropLast() + (token.last == "0" ? "1" : "0")
        let replies = await outcome {
            try await [
                PlainHTTP.get(port: port, path: "/"),
                PlainHTTP.get(port: port, path: "/?token=\(token)"),
                PlainHTTP.get(port: port, path: "/", headers: [("Connection", "close"), ("Cookie", "other=1; \(cookie)")]),
                PlainHTTP.get(port: port, path: "/sessions", headers: [("Connection", "close"), ("Cookie", cookie)]),
                PlainHTTP.get(port: port, path: "/ws", headers: Self.upgrade + [("Cookie", cookie)], headOnly: true),
                PlainHTTP.get(port: port, path: "/", headers: [("Connection", "close"), ("Cookie", "trellis-web-token-\(port)=\(wrong)")]),
                // Another bridge's cookie (another port) is not this one's.
                PlainHTTP.get(port: port, path: "/", headers: [("Connection", "close"), ("Cookie", "trellis-web-token-\(port + 1)=\(token)")]),
            ]
        }
        await viewer.stop()
        let r = try replies.get()
        #expect(token.count == 32 && token.allSatisfy(\.isHexDigit), "printed token: \(viewer.token ?? "none")")
        #expect(r.map(\.status) == [403, 200, 200, 200, 101, 403, 403], "\(r.map(\.head))")
        #expect(r[0].body.contains("needs its token"), "\(r[0].body)")
        let setCookie = Self.header("Set-Cookie", in: r[1].head) ?? ""
        let attributes = setCookie.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(attributes.first == cookie, "\(setCookie)")
        #expect(Set(attributes.dropFirst().map { $0.lowercased() }) == ["path=/", "httponly", "samesite=strict"], "\(setCookie)")
        #expect(Self.header("Set-Cookie", in: r[2].head) == nil, "only a token in the URL sets the cookie")
        #expect(r[3].body.contains(#""kind":"unreachable""#))
        #expect(r[5].body.contains("does not match"), "\(r[5].body)")
    }

    /// A refused WebSocket handshake is answered 403 with the reason in its body, as the page
    /// and the list are (Hummingbird alone answers a refused upgrade with an empty 400), and a
    /// plain GET of /ws tells why (the page asks it when its WebSocket fails).
    @Test func aRefusedWebSocketSaysWhy() async throws {
        let viewer = try await RunningWebViewer.start(socketPath: "/nonexistent/trellis.sock", defaultSession: "web")
        let port = viewer.port
        let replies = await outcome {
            try await [
                PlainHTTP.get(port: port, path: "/ws", headers: Self.upgrade, headOnly: false),
                PlainHTTP.get(port: port, path: viewer.authorized("/ws"),
                              headers: Self.upgrade + [("Origin", "http://elsewhere.example")], headOnly: false),
                PlainHTTP.get(port: port, path: "/ws?session=web&token=\(String(repeating: "0", count: 32))"),
                PlainHTTP.get(port: port, path: viewer.authorized("/ws")),
            ]
        }
        await viewer.stop()
        let r = try replies.get()
        #expect(r.map(\.status) == [403, 403, 403, 426], "\(r.map(\.head))")
        #expect(r[0].body.contains("needs its token") && r[0].body.contains("?token="), "\(r[0].body)")
        #expect(r[1].body.contains("Origin 'http://elsewhere.example'"), "\(r[1].body)")
        #expect(r[2].body.contains("does not match"), "\(r[2].body)")
        #expect(r[3].body.contains("WebSocket"), "\(r[3].body)")
    }

    /// Two Host headers: which one a check reads and which one the browser meant may differ, so
    /// a request with more than one is refused (400, saying so), even with the token.
    @Test func duplicateHostHeadersAreRefused() async throws {
        let viewer = try await RunningWebViewer.start(socketPath: "/nonexistent/trellis.sock", defaultSession: "web")
        let port = viewer.port
        let replies = await outcome {
            try await [
                PlainHTTP.get(port: port, path: viewer.authorized("/"),
                              headers: [("Host", "rebound.example:\(port)"), ("Connection", "close")]),
                PlainHTTP.get(port: port, path: viewer.authorized("/ws"),
                              headers: Self.upgrade + [("Host", "rebound.example:\(port)")]),
            ]
        }
        await viewer.stop()
        let r = try replies.get()
        #expect(r.map(\.status) == [400, 400], "\(r.map(\.head))")
        #expect(r[0].body.contains("Host header"), "\(r[0].body)")
        #expect(r[1].body.contains("Host header"), "\(r[1].body)")
    }

    /// `--no-token`: no token is made or needed, and this test's own user (trellis-web's) is
    /// served: its socket's uid, found in /proc/net/tcp, is trellis-web's own.
    @Test func withNoTokenTheOwnUserIsServed() async throws {
        let viewer = try await RunningWebViewer.start(socketPath: "/nonexistent/trellis.sock", defaultSession: "web", noToken: true)
        let port = viewer.port
        let replies = await outcome {
            try await [
                PlainHTTP.get(port: port, path: "/"),
                PlainHTTP.get(port: port, path: "/sessions"),
                PlainHTTP.get(port: port, path: "/ws", headers: Self.upgrade, headOnly: true),
            ]
        }
        await viewer.stop()
        let r = try replies.get()
        #expect(viewer.token == nil)
        #expect(r.map(\.status) == [200, 200, 101], "\(r.map(\.head)) \(r.map(\.body))")
    }

    /// trellis-web run to its end with `arguments` (no trellisd needed: each fails first).
    static func webRunToEnd(_ arguments: [String], environment: [String: String] = [:]) async throws -> ProgramRun.Finished {
        try await ProgramRun.run([builtExecutable("trellis-web").path, "--socket", "/nonexistent/trellis.sock"] + arguments,
                                 environment: environment)
    }

    /// --no-token goes with neither --token nor an address off loopback, said before anything
    /// listens.
    @Test func noTokenIsRefusedWithATokenOrOffLoopback() async throws {
        let both = try await Self.webRunToEnd(["--no-token", "--token", "a-test-token-0123456789"])
        #expect(both.status == 64)
        #expect(both.stderr.contains("--no-token"), "\(both.stderr)")
        let offLoopback = try await Self.webRunToEnd(["--no-token", "--bind", "0.0.0.0"])
        #expect(offLoopback.status == 64)
        #expect(offLoopback.stderr.contains("loopback"), "\(offLoopback.stderr)")
    }

    /// $TRELLIS_WEB_TOKEN gives the token as --token does, without putting it in the arguments
    /// that every local user reads in ps (/proc/PID/cmdline); it is checked as --token is.
    @Test func theTokenMayComeFromTheEnvironment() async throws {
        let secret = "an-environment-token-0123456789"
        let viewer = try await RunningWebViewer.start(socketPath: "/nonexistent/trellis.sock", environment: ["TRELLIS_WEB_TOKEN": secret])
        let arguments = (try? String(contentsOfFile: "/proc/\(viewer.pid)/cmdline", encoding: .utf8)) ?? ""
        let reply = await outcome { try await PlainHTTP.get(port: viewer.port, path: viewer.authorized("/")) }
        await viewer.stop()
        #expect(viewer.token == secret)
        #expect(!arguments.isEmpty && !arguments.contains(secret), "\(arguments)")
        #expect(try reply.get().status == 200)
        let short = try await Self.webRunToEnd([], environment: ["TRELLIS_WEB_TOKEN": "short"])
        #expect(short.status == 64)
        #expect(short.stderr.contains("TRELLIS_WEB_TOKEN takes 16 to 256 characters"), "\(short.stderr)")
        let withNoToken = try await Self.webRunToEnd(["--no-token"], environment: ["TRELLIS_WEB_TOKEN": secret])
        #expect(withNoToken.status == 64)
        #expect(withNoToken.stderr.contains("unset TRELLIS_WEB_TOKEN"), "\(withNoToken.stderr)")
    }

    /// An empty or unknown --bind is said with what to change, exit 69 (cannot listen), not as
    /// NIO's SocketAddressError.UnknownHost.
    @Test func anUnusableBindAddressIsSaidPlainly() async throws {
        let empty = try await Self.webRunToEnd(["--bind", "", "--port", "0"])
        #expect(empty.status == 69)
        #expect(empty.stderr.contains("trellis-web: cannot listen on '':"), "\(empty.stderr)")
        #expect(empty.stderr.contains("--bind takes an address of this machine"), "\(empty.stderr)")
        #expect(!empty.stderr.contains("SocketAddressError"), "\(empty.stderr)")
        let unknown = try await Self.webRunToEnd(["--bind", "nosuch.invalid", "--port", "0"])
        #expect(unknown.status == 69)
        #expect(unknown.stderr.contains("'nosuch.invalid'") && !unknown.stderr.contains("SocketAddressError"), "\(unknown.stderr)")
    }
}
