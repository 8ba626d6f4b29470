import Foundation
import Testing
import TrellisTestSupport
import TrellisClient
import TrellisCore

/// `trellis web`: it makes sure the server is there (and with `--demo` that the demo plays on
/// its session), then becomes trellis-web, which prints the URL to open.
@Suite struct WebCommandTests {
    /// `trellis --socket S arguments…` running in the background (as trellis-web, once it execs).
    static func web(_ server: CLIServer, _ arguments: [String]) throws -> ServiceProcess {
        try ServiceProcess("trellis", ["--socket", server.socketPath] + arguments)
    }

    @Test func theDemoIsMadeAndServedWithControls() throws {
        let server = try CLIServer()
        defer { server.stop() }
        let web = try Self.web(server, ["web", "--demo", "--control", "--port", "0", "--log-level", "error"])
        defer { web.stop() }
        let line = web.line(startingWith: "trellis-web: ")
        #expect(line?.hasPrefix("trellis-web: http://127.0.0.1:") == true, "\(line ?? "nothing printed")")
        // On loopback too: the URL to open carries the token trellis-web made.
        #expect(Self.token(in: line ?? "")?.count == 32, "\(line ?? "nothing printed")")
        #expect(line?.contains("(watch and drive) → trellisd at \(server.socketPath)") == true)
        // exec: the process that printed is trellis-web itself, so signals reach it directly.
        let image = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(web.process.processIdentifier)/exe")
        #expect(image?.hasSuffix("/trellis-web") == true)
        let info = server.trellis("info", "demo")
        #expect(info.status == 0 && info.stdout.contains("clock: live"), "\(info.stdout)")
        // The demo plays on the session by itself (its first step inserts items), from a
        // `trellis demo --headless` that is trellis-web's child and ends with it.
        let webPID = web.process.processIdentifier
        let player = try #require(Self.children(of: webPID).first { $0.arguments.contains("--headless") },
                                  "no demo child of trellis-web: \(Self.children(of: webPID))")
        #expect(player.arguments.contains("demo"))
        var changed = false
        for _ in 0..<100 where !changed {
            usleep(100_000)
            let now = server.trellis("info", "demo").stdout
            changed = !now.contains("items: 24")
        }
        #expect(changed, "the demo session stayed as it was made")
        web.stop()
        var gone = false
        for _ in 0..<100 where !gone {
            usleep(100_000)
            gone = kill(player.pid, 0) != 0
        }
        #expect(gone, "the demo outlived trellis-web")
    }

    /// The processes whose parent is `pid`, with their arguments.
    static func children(of pid: Int32) -> [(pid: Int32, arguments: [String])] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> (Int32, [String])? in
            guard let child = Int32(entry),
                  let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 2, Int32(fields[1]) == pid,
                  let cmdline = try? String(contentsOfFile: "/proc/\(entry)/cmdline", encoding: .utf8) else { return nil }
            return (child, cmdline.split(separator: "\0").map(String.init))
        }
    }

    /// The 32 hexadecimal digits after `?token=` in trellis-web's line; nil when there are none.
    static func token(in line: String) -> Substring? {
        line.split(separator: "?token=").dropFirst().first?.prefix(while: { $0.isHexDigit })
    }

    @Test func anyOtherAddressGetsARandomToken() throws {
        let server = try CLIServer()
        defer { server.stop() }
        let web = try Self.web(server, ["web", "--bind", "0.0.0.0", "--port", "0", "--log-level", "error"])
        defer { web.stop() }
        let line = try #require(web.line(startingWith: "trellis-web: "))
        #expect(Self.token(in: line)?.count == 32, "\(line)")
        #expect(line.contains("(watch)"))
    }

    /// A --token is handed to trellis-web through its environment, so trellis-web's arguments,
    /// which every local user reads in ps, do not show it.
    @Test func aGivenTokenIsNotAnArgument() throws {
        let server = try CLIServer()
        defer { server.stop() }
        let secret = "a-command-line-token-0123456789"
        let web = try Self.web(server, ["web", "--token", secret, "--port", "0", "--log-level", "error"])
        defer { web.stop() }
        let line = try #require(web.line(startingWith: "trellis-web: "))
        #expect(line.contains("/?token=\(secret) "), "\(line)")
        let arguments = try String(contentsOfFile: "/proc/\(web.process.processIdentifier)/cmdline", encoding: .utf8)
        #expect(arguments.contains("trellis-web") && !arguments.contains(secret), "\(arguments)")
    }

    /// --no-token: no token in the URL (trellis-web then serves only its own uid).
    @Test func noTokenLeavesTheTokenOut() throws {
        let server = try CLIServer()
        defer { server.stop() }
        let web = try Self.web(server, ["web", "--no-token", "--port", "0", "--log-level", "error"])
        defer { web.stop() }
        let line = try #require(web.line(startingWith: "trellis-web: "))
        #expect(line.hasPrefix("trellis-web: http://127.0.0.1:") && !line.contains("token"), "\(line)")
    }

    /// An empty --bind is said plainly, with what to change (exit 69, as any address it cannot
    /// listen on), not as NIO's SocketAddressError.
    @Test func anEmptyBindIsSaid() throws {
        let server = try CLIServer()
        defer { server.stop() }
        let web = server.trellis("web", "--bind", "", "--port", "0", "--log-level", "error")
        #expect(web.status == 69)
        #expect(web.stderr.contains("cannot listen on '':") && web.stderr.contains("--bind"), "\(web.stderr)")
        #expect(!web.stderr.contains("SocketAddressError"), "\(web.stderr)")
    }

    /// A port another program holds: said plainly, with what to change, exit 69.
    @Test func aPortInUseIsSaid() throws {
        let server = try CLIServer()
        defer { server.stop() }
        let first = try Self.web(server, ["web", "--port", "0", "--log-level", "error"])
        defer { first.stop() }
        let line = try #require(first.line(startingWith: "trellis-web: "))
        let port = try #require(line.components(separatedBy: "http://127.0.0.1:").last?.prefix(while: { $0.isNumber }))
        try #require(!port.isEmpty, "\(line)")
        let second = server.trellis("web", "--port", String(port), "--log-level", "error")
        #expect(second.status == 69)
        #expect(second.stderr.contains("cannot listen on 127.0.0.1:\(port): Address already in use; choose another --port"), "\(second.stderr)")
    }

    @Test func mistakesAreSaidBeforeAnythingIsServed() throws {
        let server = try CLIServer()
        defer { server.stop() }
        let unknown = server.trellis("web", "nosuch")
        #expect(unknown.status == 65)
        #expect(unknown.stderr.contains("no session named 'nosuch'"))
        let both = server.trellis("web", "other", "--demo")
        #expect(both.status == 64)
        #expect(both.stderr.contains("--demo shows the session 'demo'"))
        let token = server.trellis("web", "--token", "short")
        #expect(token.status != 0)
        #expect(token.stderr.contains("--token takes 16 to 256 characters"))
        // --no-token goes with neither a token nor an address off loopback; said before the
        // demo session is made.
        let noAndToken = server.trellis("web", "--demo", "--no-token", "--token", "a-test-token-0123456789")
        #expect(noAndToken.status == 64)
        #expect(noAndToken.stderr.contains("--no-token"), "\(noAndToken.stderr)")
        let noOffLoopback = server.trellis("web", "--demo", "--no-token", "--bind", "0.0.0.0")
        #expect(noOffLoopback.status == 64)
        #expect(noOffLoopback.stderr.contains("loopback"), "\(noOffLoopback.stderr)")
        #expect(server.trellis("info", "demo").status != 0, "the demo session was made before the flags were checked")
    }
}
