import Foundation
import Testing
import TrellisTestSupport
@testable import TrellisClient
import TrellisCore
import TrellisProtocol

/// The debug layer in `trellis attach`, in a real terminal (tmux, as AttachTmuxTests): `d`
/// shows it, dim, where the point → cell mapping puts it (a boundary across the view, its
/// label, a contact), and hides it again; the server builds it only while it is shown.
@Suite(.serialized) struct DebugTmuxTests {
    @Test func dTogglesTheDebugLayerDrawnWhereTheMappingPutsIt() throws {
        let server = try CLIServer()
        defer { server.stop() }
        // 400×312 in the pane's 100×39 cells: 4 points a column, 8 a row.
        let client = try RPCClient(path: server.socketPath, timeout: 10)
        defer { client.close() }
        try client.call("session.create", ["name": .string("dbg"), "clock": .string("manual"),
                                           "layout": .object(["type": .string("flow")]), "bounds": .array([.number(400), .number(312)])])
        try client.call("body.add", ["session": .string("dbg"), "body": .string("card"), "center": .array([.number(200), .number(100)]),
                                     "size": .array([.number(40), .number(40)])])
        try client.call("dynamics.add", ["session": .string("dbg"), "behavior": .object([
            "type": .string("collision"), "items": .array([.object(["body": .string("card")])]),
            "boundaries": .array([.object(["id": .string("ledge"), "from": .array([.number(0), .number(200)]), "to": .array([.number(400), .number(200)])])]),
        ])])
        let tmux = try TmuxPane(command: [builtExecutable("trellis").path, "--socket", server.socketPath, "attach", "dbg"],
                                columns: AttachTmuxTests.columns, rows: AttachTmuxTests.rows)
        defer { tmux.kill() }
        func built() throws -> Double { try client.call("stats", ["session": .string("dbg")])["debugShapesBuilt"]?.numberValue ?? -1 }

        var screen = try tmux.waitForScreen("the keyframe") { $0.last?.contains("dbg · seq") == true && $0.joined().contains("card") }
        // The segment y = 200 is row 25: nothing there without the layer, and nothing built.
        #expect(!screen[25].contains("═"))
        #expect(try built() == 0)

        try tmux.sendKeys("d")
        screen = try tmux.waitForScreen("the debug layer") { $0.count > 25 && $0[25].filter { $0 == "═" }.count >= 90 }
        // The label sits above its segment's first point (column 0 is the bounds' dashed left
        // edge); the card's view is drawn over its shape.
        #expect(screen[24].dropFirst().hasPrefix("ledge"), "\(screen[24])")
        #expect(screen[24].hasPrefix("┄"), "\(screen[24])")
        #expect(screen.joined().contains("card"))
        #expect(try built() > 0)

        try tmux.sendKeys("d")
        screen = try tmux.waitForScreen("the layer hidden") { $0.count > 25 && !$0[25].contains("═") && $0.last?.contains("debug layer off") == true }
        #expect(!screen.joined().contains("ledge"))
        let before = try built()
        try client.call("clock.advance", ["session": .string("dbg"), "ms": .number(100)])
        #expect(try built() == before, "a viewer that hid the layer still makes the server build it")

        try tmux.sendKeys("q")
        #expect(try tmux.waitForExit() == 0)
    }

    /// `trellis demo` on a terminal: its dynamics step (the fifth) shows the debug layer, the
    /// steps before and after it do not; the server builds shapes only meanwhile.
    @Test func theDemosDynamicsStepShowsTheDebugLayer() throws {
        let server = try CLIServer()
        defer { server.stop() }
        let tmux = try TmuxPane(command: [builtExecutable("trellis").path, "--socket", server.socketPath, "demo", "--steps", "6", "--interval", "0.2"],
                                columns: AttachTmuxTests.columns, rows: AttachTmuxTests.rows)
        defer { tmux.kill() }
        let client = try RPCClient(path: server.socketPath, timeout: 10)
        defer { client.close() }
        func stats() -> JSONValue? { try? client.call("stats", ["session": .string("demo")]) }
        func debugViewers() -> Int { (stats()?["viewers"]?.arrayValue ?? []).filter { $0["debug"] == .bool(true) }.count }
        /// Polls until `condition` holds, at most `seconds`; the screen then.
        func wait(_ what: String, seconds: Double = 60, _ condition: () -> Bool) throws -> [String] {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if condition() { return tmux.capture() }
                usleep(50_000)
            }
            Issue.record("timed out waiting for \(what); the pane shows:\n\(tmux.capture().joined(separator: "\n"))")
            throw ClientError.timeout(method: what, seconds: seconds)
        }
        _ = try wait("the demo's session") { stats() != nil }
        let screen = try wait("the debug layer") { debugViewers() == 1 }
        let caption = screen.joined(separator: "\n")
        #expect(caption.contains("5/13") && caption.contains("boxes pile on; debug layer on"), "\(caption)")
        _ = try wait("shapes built", seconds: 10) { (stats()?["debugShapesBuilt"]?.numberValue ?? 0) > 0 }
        _ = try wait("the next step") { debugViewers() == 0 }
        let built = stats()?["debugShapesBuilt"]?.numberValue ?? -1
        _ = try wait("step 6 on screen", seconds: 10) { tmux.capture().joined().contains("6/13") }
        usleep(300_000)
        #expect(stats()?["debugShapesBuilt"]?.numberValue == built, "shapes built after the layer was hidden")
    }
}
