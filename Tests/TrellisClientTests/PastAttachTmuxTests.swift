import Foundation
import Testing
import TrellisTestSupport
@testable import TrellisClient
import TrellisCore
import TrellisProtocol

/// `trellis attach NAME --at TIME`: a past moment of a recorded session in a real terminal
/// (tmux, as AttachTmuxTests), moved through with timeline keys; what is drawn must be the
/// scene `session.seek` gives for the moment the status line names, at the cells the viewer's
/// point → cell mapping puts it. And the refusals, on a terminal and piped.
@Suite(.serialized) struct PastAttachTmuxTests {
    static let columns = AttachTmuxTests.columns, rows = AttachTmuxTests.rows

    /// The README's recorded scroll in AttachTmuxTests' geometry (400×312 bounds, 4 points a
    /// column and 8 a row in a 100×40 pane): recording from time 0, an animated scroll to y 300
    /// starting at 0.5 s, a mark 'settled' at 1.2 s, the live end at 1.5 s (frame 90).
    func makeRecordedSession(_ server: CLIServer, directory: String) throws {
        for arguments in [["new", "watch", "--bounds", "400x312", "--item-size", "100x80", "--manual-clock"],
                          ["reload", "watch", "--items", "30"],
                          ["record-script", "watch", "--out", directory + "/watch.trellis"],
                          ["advance", "watch", "500ms"],
                          ["scroll", "watch", "--to=0,300", "--animated"],
                          ["advance", "watch", "700ms"],
                          ["mark", "watch", "settled"],
                          ["advance", "watch", "300ms"]] {
            let r = runTrellis(["--socket", server.socketPath] + arguments)
            #expect(r.status == 0, "\(arguments): \(r.stderr)")
        }
    }

    func seekScene(_ server: CLIServer, _ moment: [String: JSONValue]) throws -> Scene {
        let reply = try RPCClient(path: server.socketPath).call("session.seek", moment.merging(["session": .string("watch")]) { a, _ in a })
        return try WireScene.scene(reply["scene"] ?? .null)
    }

    /// The frame a status line names (`frame 37 of 90`).
    static func frame(in line: String) -> Int? {
        guard let range = line.range(of: "frame ") else { return nil }
        return Int(line[range.upperBound...].prefix { $0.isNumber })
    }

    static func scratch() throws -> String {
        let directory = TrellisdProcess.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func showsThePastSceneStepsAFrameJumpsToAMarkAndQuits() throws {
        let server = try CLIServer(keepsState: true)
        defer { server.stop() }
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try makeRecordedSession(server, directory: directory)
        let live = try AttachTmuxTests().serverScene(server)
        #expect(live.contentOffset == Point(0, 300))

        let tmux = try TmuxPane(command: [builtExecutable("trellis").path, "--socket", server.socketPath, "attach", "watch", "--at", "0.6s"],
                                columns: Self.columns, rows: Self.rows)
        defer { tmux.kill() }
        // 0.6 s in: the scroll under way, so the past offset is neither the start nor the live one.
        let past = try seekScene(server, ["at": .number(600)])
        #expect(past.contentOffset.y > 0 && past.contentOffset.y < 300, "\(past.contentOffset)")
        var screen = try tmux.waitForScreen("the moment 0.6 s in") { $0.last?.contains("watch · past 0.600 s · frame 36 of 90 · read-only") == true }
        #expect(screen.last?.contains("next mark 'settled'") == true, "\(screen.last ?? "")")
        AttachTmuxTests().checkLabels(screen, past, atLeast: 4)
        // A view on screen both then and now sits on another row in the past drawing than live.
        let pastMapping = ViewportMapping(visible: Rect(origin: past.contentOffset, size: past.boundsSize), columns: Self.columns, rows: Self.rows - 1)
        let liveMapping = ViewportMapping(visible: Rect(origin: live.contentOffset, size: live.boundsSize), columns: Self.columns, rows: Self.rows - 1)
        let shared = try #require(past.views.first { view in live.views.contains { $0.element == view.element } })
        #expect(pastMapping.cellPoint(shared.attributes.frame.center).y != liveMapping.cellPoint(shared.attributes.frame.center).y)

        // Right: frame 37, drawn as session.seek has it (the scroll has moved on).
        let before = screen
        try tmux.sendKeys("Right")
        screen = try tmux.waitForScreen("frame 37") { $0.last?.contains("past 0.617 s · frame 37 of 90") == true }
        let next = try seekScene(server, ["atFrame": .number(37)])
        #expect(next.contentOffset != past.contentOffset)
        #expect(Array(screen.dropLast()) != Array(before.dropLast()), "the drawing did not change")
        AttachTmuxTests().checkLabels(screen, next, atLeast: 4)

        // n: to the mark (1.2 s, frame 72), where the scroll has settled at the live offset.
        try tmux.sendKeys("n")
        screen = try tmux.waitForScreen("the mark") { $0.last?.contains("past 1.200 s · frame 72 of 90") == true }
        #expect(screen.last?.contains("next mark") == false)
        AttachTmuxTests().checkLabels(screen, try seekScene(server, ["at": .number(1200)]))

        // Home and End: the range's two ends; ] past the end stays at the last frame.
        try tmux.sendKeys("Home")
        _ = try tmux.waitForScreen("the start") { $0.last?.contains("past 0.000 s · frame 0 of 90") == true }
        try tmux.sendKeys("End")
        _ = try tmux.waitForScreen("the end") { $0.last?.contains("past 1.500 s · frame 90 of 90") == true }

        // [ goes back a second; space plays from there on the viewer's timer, through frames it
        // did not step to, and pauses by itself at the end (the manual clock stood still).
        try tmux.sendKeys("[")
        _ = try tmux.waitForScreen("a second back") { $0.last?.contains("past 0.500 s · frame 30 of 90") == true }
        try tmux.sendKeys("Space")
        // Caught between: a frame neither where it started nor the end, each an own seek.
        _ = try tmux.waitForScreen("a frame played through") { screen in
            guard let line = screen.last, line.contains("playing"), let frame = Self.frame(in: line) else { return false }
            return frame > 30 && frame < 90
        }
        screen = try tmux.waitForScreen("the end, played to") { $0.last?.contains("frame 90 of 90 · read-only · the end of the recording") == true }
        #expect(screen.last?.contains("playing") == false)
        AttachTmuxTests().checkLabels(screen, try seekScene(server, ["atFrame": .number(90)]))

        // The live session is untouched: same offset, same time.
        #expect(try AttachTmuxTests().serverScene(server).contentOffset == Point(0, 300))
        #expect(try RPCClient(path: server.socketPath).call("session.info", ["session": .string("watch")])["time"]?.numberValue == 1500)
        try tmux.sendKeys("q")
        #expect(try tmux.waitForExit() == 0)
        #expect(!tmux.capture().joined().contains("past 1.500 s"))
    }

    @Test func refusalsAreClearAndExitNonZero() throws {
        let server = try CLIServer(keepsState: true)
        defer { server.stop() }
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try makeRecordedSession(server, directory: directory)
        #expect(server.trellis("new", "plain", "--manual-clock").status == 0)

        // On a terminal: the message stays readable (the screen was never taken), exit 65.
        let tmux = try TmuxPane(command: [builtExecutable("trellis").path, "--socket", server.socketPath, "attach", "watch", "--at", "10s"],
                                columns: Self.columns, rows: Self.rows)
        defer { tmux.kill() }
        #expect(try tmux.waitForExit() == 65)
        #expect(tmux.capture().joined().contains("past the end of the recording of 'watch', which covers 0 … 1500 ms, frames 0 … 90"),
                "\(tmux.capture().joined(separator: "\n"))")

        var r = server.trellis("attach", "plain", "--at", "1s")
        #expect(r.status == 65 && r.stderr.contains("session 'plain' is not being recorded"), "\(r.stderr)")
        r = server.trellis("attach", "watch", "--at-frame", "91")
        #expect(r.status == 65 && r.stderr.contains("frame 91 is past the end of the recording of 'watch'"), "\(r.stderr)")
        r = server.trellis("attach", "nope", "--at", "1s")
        #expect(r.status == 65 && r.stderr.contains("no session named 'nope'"), "\(r.stderr)")
        r = server.trellis("attach", "watch", "--at", "1s", "--debug")
        #expect(r.status == 64 && r.stderr.contains("do not go with --debug"), "\(r.stderr)")
        r = server.trellis("attach", "watch", "--at", "1s", "--frames", "3")
        #expect(r.status == 64 && r.stderr.contains("do not go with --frames"), "\(r.stderr)")
        r = server.trellis("attach", "watch", "--at", "1s", "--at-frame", "3")
        #expect(r.status == 64 && r.stderr.contains("give either --at or --at-frame, not both"), "\(r.stderr)")
    }

    /// Piped, the moment is printed once as text (the live view's drawing) and the command
    /// exits; with --json, session.seek's reply.
    @Test func pipedTheMomentIsPrintedOnce() throws {
        let server = try CLIServer(keepsState: true)
        defer { server.stop() }
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try makeRecordedSession(server, directory: directory)
        var r = server.trellis("attach", "watch", "--at-frame", "36", "--size", "\(Self.columns)x\(Self.rows)")
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.components(separatedBy: "\n")
        #expect(lines.count == Self.rows + 2 && lines[Self.rows - 1].contains("watch · past 0.600 s · frame 36 of 90"), "\(r.stdout)")
        AttachTmuxTests().checkLabels(Array(lines.prefix(Self.rows)), try seekScene(server, ["atFrame": .number(36)]), atLeast: 4)
        r = server.trellis("--json", "attach", "watch", "--at", "600")
        let reply = try JSONParser.parse(Array(r.stdout.utf8))
        #expect(r.status == 0 && reply["at"] == .number(600) && reply["session"] == .string("watch"), "\(r.stdout)")
        #expect(try WireScene.scene(reply["scene"] ?? .null).contentOffset == (try seekScene(server, ["at": .number(600)])).contentOffset)
    }
}
