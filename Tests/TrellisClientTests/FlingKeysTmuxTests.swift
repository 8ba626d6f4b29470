import Foundation
import Testing
import TrellisTestSupport
@testable import TrellisClient
import TrellisCore
import TrellisProtocol

/// The viewer's fling keys in a real terminal: tmux sends shift+down as a terminal does, and
/// the session (on a manual clock, so it waits where the flick left it) is flung.
@Suite struct FlingKeysTmuxTests {
    @Test func shiftDownFlingsTheContentUpAndReadOnlyDoesNot() throws {
        let server = try CLIServer()
        defer { server.stop() }
        #expect(server.trellis("new", "watch", "--bounds", "400x312", "--item-size", "100x80", "--manual-clock").status == 0)
        #expect(server.trellis("reload", "watch", "--items", "15").status == 0)
        let tmux = try TmuxPane(command: [builtExecutable("trellis").path, "--socket", server.socketPath, "attach", "watch"],
                                columns: 100, rows: 40)
        defer { tmux.kill() }
        _ = try tmux.waitForScreen("the keyframe") { $0.joined().contains("#8") }
        try tmux.sendKeys("S-Down")
        // A flick up at 3000 pt/s: one frame (50 pt) of drag, then decelerating.
        let deadline = Date().addingTimeInterval(10)
        var state: JSONValue?
        while Date() < deadline {
            state = try RPCClient(path: server.socketPath).call("session.info", ["session": .string("watch")])["scroll"]
            if state?["decelerating"] == .bool(true) { break }
            usleep(20_000)
        }
        #expect(state?["decelerating"] == .bool(true))
        #expect(state?["contentOffset"] == .array([.number(0), .number(50)]))
        #expect(state?["velocity"] == .array([.number(0), .number(3000)]))
        // It runs to the end of the 440 pt content and rests there.
        #expect(server.trellis("advance", "watch", "5s").status == 0)
        state = try RPCClient(path: server.socketPath).call("session.info", ["session": .string("watch")])["scroll"]
        #expect(state?["contentOffset"] == .array([.number(0), .number(128)]))
        try tmux.sendKeys("q")
        #expect(try tmux.waitForExit() == 0)

        let watcher = try TmuxPane(command: [builtExecutable("trellis").path, "--socket", server.socketPath, "attach", "watch", "--read-only"],
                                   columns: 100, rows: 40)
        defer { watcher.kill() }
        _ = try watcher.waitForScreen("the read-only keyframe") { $0.last?.contains("read-only") == true }
        try watcher.sendKeys("S-Up")
        _ = try watcher.waitForScreen("the read-only note") { $0.last?.contains("fling keys off") == true }
        #expect(try RPCClient(path: server.socketPath).call("session.info", ["session": .string("watch")])["scroll"]?["decelerating"] == .bool(false))
    }
}
