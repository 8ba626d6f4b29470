import Foundation
import Testing
import TrellisTestSupport
import TrellisClient
import TrellisCore
import TrellisProtocol

/// `trellis drag`, `fling`, `touch` and `scroll-config`, the real executable against a real
/// trellisd: the samples reach the server on its clock, what they print, refusals and exits.
@Suite struct ScrollCLITests {
    func scrollState(_ server: CLIServer, _ session: String) throws -> JSONValue? {
        try RPCClient(path: server.socketPath).call("session.info", ["session": .string(session)])["scroll"]
    }

    @Test func aDragOnAManualClockAdvancesItFrameByFrameAndFollowsTheFinger() throws {
        let server = try CLIServer()
        defer { server.stop() }
        #expect(server.trellis("new", "s", "--bounds", "375x667", "--item-size", "100x100", "--manual-clock").status == 0)
        #expect(server.trellis("reload", "s", "--items", "1000").status == 0)
        // 300 ms = 18 frames of clock.advance; inside the content the offset follows 1:1.
        var r = server.trellis("drag", "s", "--by", "0,-600", "--release-velocity", "0,0")
        #expect(r.status == 0 && r.stdout == "offset=0,600 velocity=0,0 at rest\n")
        let time = try RPCClient(path: server.socketPath).call("session.info", ["session": .string("s")])["time"]?.numberValue ?? .nan
        #expect(abs(time - 300) < 1e-6)
        // A flick: one frame (50 pt) of drag, then decelerating at the finger's speed.
        r = server.trellis("fling", "s", "--velocity", "0,-3000")
        #expect(r.status == 0 && r.stdout == "offset=0,650 velocity=0,3000 decelerating\n")
        // A touch catches it where it is; lifting leaves it there.
        #expect(server.trellis("advance", "s", "100ms").status == 0)
        r = server.trellis("touch", "s", "--at", "100,100")
        #expect(r.status == 0 && r.stdout.hasSuffix("velocity=0,0 tracking\n"))
        let caught = try scrollState(server, "s")?["contentOffset"]
        #expect(server.trellis("advance", "s", "1s").status == 0)
        r = server.trellis("touch", "s", "--up")
        #expect(r.status == 0 && r.stdout.hasSuffix("velocity=0,0 at rest\n"))
        #expect(try scrollState(server, "s")?["contentOffset"] == caught)
        // --json prints the server's scroll state as it is.
        r = server.trellis("--json", "drag", "s", "--by=-0,10", "--over", "50ms")
        #expect(r.status == 0 && r.stdout.contains(#""dragging":false"#) && r.stdout.contains(#""decelerating":true"#))
    }

    @Test func scrollConfigSetsAndPrintsUIScrollViewsSettings() throws {
        let server = try CLIServer()
        defer { server.stop() }
        #expect(server.trellis("new", "p", "--manual-clock").status == 0)
        var r = server.trellis("scroll-config", "p")
        #expect(r.stdout == "alwaysBounceHorizontal=false alwaysBounceVertical=false bounces=true decelerationRate=normal pagingEnabled=false scrollEnabled=true\n")
        r = server.trellis("scroll-config", "p", "--paging", "true", "--deceleration", "0.995", "--always-bounce-vertical", "true")
        #expect(r.stdout == "alwaysBounceHorizontal=false alwaysBounceVertical=true bounces=true decelerationRate=0.995 pagingEnabled=true scrollEnabled=true\n")
        #expect(try scrollState(server, "p")?["configuration"]?["pagingEnabled"] == .bool(true))
        // The server's refusals: exit 65 with its message; the CLI's own: exit 64, nothing sent.
        #expect(server.trellis("scroll-config", "p", "--scroll-enabled", "false").status == 0)
        r = server.trellis("fling", "p", "--velocity", "0,-3000")
        #expect(r.status == 65 && r.stderr.contains("scrollEnabled is false"))
        r = server.trellis("scroll-config", "p", "--deceleration", "2")
        #expect(r.status == 65)
        r = server.trellis("scroll-config", "p", "--bounces", "no")
        #expect(r.status == 64 && r.stderr == "trellis: --bounces 'no': expected true or false\n")
        r = server.trellis("drag", "p", "--by", "1")
        #expect(r.status == 64 && r.stderr == "trellis: '1': expected a point X,Y, e.g. 120,300\n")
        r = server.trellis("drag", "nope", "--by", "0,1")
        #expect(r.status == 65)
    }

    @Test func anOutOfRangeGestureValueIsRefusedBeforeTheFirstSample() throws {
        let server = try CLIServer()
        defer { server.stop() }
        #expect(server.trellis("new", "s", "--bounds", "375x667", "--item-size", "100x100", "--manual-clock").status == 0)
        #expect(server.trellis("reload", "s", "--items", "1000").status == 0)
        // Issue 24, item 7: the server refused these halfway (a began accepted, a later sample
        // not), leaving the session dragging for ever. Now: exit 65 naming the option, the
        // range and the value, and nothing sent (the clock has not moved either).
        let refused: [([String], String)] = [
            (["fling", "s", "--velocity", "1e7,0"], "--velocity '1e7,0': DX and DY must each be from -1000000 to 1000000 pt/s, found 10000000,0"),
            (["drag", "s", "--by", "0,10", "--release-velocity", "1e7,0"],
             "--release-velocity '1e7,0': DX and DY must each be from -1000000 to 1000000 pt/s, found 10000000,0"),
            (["drag", "s", "--by", "1e7,0"], "--by '1e7,0': DX and DY must each be from -1000000 to 1000000 pt, found 10000000,0"),
            (["drag", "s", "--by", "0,-1e6", "--over", "0"], "--by over --over releases the finger at 0,-60000000 pt/s"),
            (["drag", "s", "--by", "0,10", "--at", "2e9,0"], "--at '2e9,0': x and y must each be from -1000000000 to 1000000000 pt, found 2000000000,0"),
            (["fling", "s", "--velocity", "0,-3000", "--at=-2e9,0"], "--at '-2e9,0': x and y must each be from -1000000000 to 1000000000 pt"),
            (["touch", "s", "--at", "0,2e9"], "--at '0,2e9': x and y must each be from -1000000000 to 1000000000 pt, found 0,2000000000"),
            (["drag", "s", "--by", "0,10", "--over", "600001ms"], "--over '600001ms': a drag takes at most 600000ms (10 minutes), found 600001ms"),
        ]
        for (arguments, message) in refused {
            let r = runTrellis(["--socket", server.socketPath] + arguments)
            #expect(r.status == 65 && r.stderr.hasPrefix("trellis: " + message), "\(arguments): \(r.status) \(r.stderr)")
            #expect(r.stdout.isEmpty)
            let info = try RPCClient(path: server.socketPath).call("session.info", ["session": .string("s")])
            #expect(info["scroll"]?["dragging"] == .bool(false) && info["scroll"]?["tracking"] == .bool(false), "\(arguments)")
            #expect(info["time"] == .number(0), "\(arguments)")
        }
        // The edges themselves are the server's and go through.
        let r = server.trellis("drag", "s", "--by", "0,-1000000", "--over", "1s", "--release-velocity", "0,-1000000", "--at", "1000000000,0")
        #expect(r.status == 0, "\(r.stderr)")
    }

    @Test func aScriptSeesAnOutOfRangeGestureValueAsTheServersInvalidParams() throws {
        // The refusal a script's expect-error matched when the server made it, made earlier.
        let directory = CLIServer.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try """
            new s --bounds 375x667 --item-size 100x100
            reload s --items 100
            fling s --velocity 1e7,0
            expect-error invalid_params "--velocity '1e7,0'"
            drag s --by 0,-100 --release-velocity 0,2e6
            expect-error -32602
            expect s scroll dragging==false tracking==false offset=0,0
            """.write(toFile: directory + "/range.trellis", atomically: true, encoding: .utf8)
        let r = runTrellis(["run", "range.trellis"], in: directory)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
    }

    @Test func aDragLongerThanTenMinutesIsRefusedBeforeConnecting() throws {
        // Issue 24, item 8: --over 1e12ms built every sample up front (1 GB in 1.3 s). The bound
        // is checked before connecting: no server is needed (--no-start: were it asked for one,
        // the exit would be 69 and no daemon is left behind), none is started.
        let directory = CLIServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socket = directory + "/run/s.sock"
        for over in ["1e12ms", "601s", "600000.5ms"] {
            let r = runTrellis(["--socket", socket, "--no-start", "drag", "s", "--by", "0,-600", "--over", over])
            #expect(r.status == 65 && r.stderr.hasPrefix("trellis: --over '\(over)': a drag takes at most 600000ms (10 minutes)"), "\(over): \(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: socket))
        // Its help says the bound and the ranges.
        let help = runTrellis(["drag", "--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("at most 600000ms (10 minutes)") && help.contains("-1000000 to 1000000 pt/s"))
    }

    @Test func aDragOnALiveClockTakesItsDurationInRealTime() throws {
        let server = try CLIServer()
        defer { server.stop() }
        #expect(server.trellis("new", "l", "--item-size", "100x100").status == 0)
        #expect(server.trellis("reload", "l", "--items", "100").status == 0)
        let start = Date()
        let r = server.trellis("drag", "l", "--by", "0,-300", "--over", "200ms", "--release-velocity", "0,0")
        // The samples wait for real time: 12 frames of 1/60 s at least (never less, however loaded).
        #expect(Date().timeIntervalSince(start) >= 0.195)
        #expect(r.status == 0 && r.stdout == "offset=0,300 velocity=0,0 at rest\n")
    }
}
