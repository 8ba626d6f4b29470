import Foundation
import Testing
import TrellisTestSupport
import TrellisClient
import TrellisProtocol

/// `trellis demo` and `trellis attach` without a terminal (piped, as in CI), and the demo with
/// no viewer (`--headless`, what tools/web runs).
@Suite struct DemoCommandTests {
    /// The demo piped in the C locale (ASCII boxes), its default steps.
    static func pipedDemo(_ server: CLIServer, _ arguments: [String] = []) -> CLIResult {
        runTrellis(["--socket", server.socketPath, "demo"] + arguments, environment: ["LANG": "C", "LC_ALL": "C"])
    }

    /// The scene printed under the heading that starts with `heading`, its frame taken off.
    static func scene(after heading: String, in output: String) -> [String] {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(where: { $0.hasPrefix(heading) }) else { return [] }
        return lines[(start + 1)...].prefix { $0.hasPrefix("|") }.map { String($0.dropFirst().dropLast()) }
    }

    @Test func thePipedDemoReachesEveryOneOfTheFiveSystemsInItsDefaultSteps() throws {
        let server = try CLIServer()
        defer { server.stop() }
        let r = Self.pipedDemo(server)
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        // One heading a step, the step's caption: one cycle by default.
        let steps = lines.filter { $0.hasPrefix("══ step ") }
        #expect(steps.count == DemoChoreography.cycleLength, "\(steps)")
        #expect(steps.first?.hasPrefix("══ step 1/13 · batch updates: insert #24, #25: fading in from their initial attributes") == true)
        for system in DemoSystem.allCases {
            #expect(steps.contains { $0.contains(" · \(system.rawValue): ") }, "no step shows \(system.rawValue)")
        }
        // All five by the sixth step, the tour of the layouts from there on.
        #expect(Set(steps.prefix(6).compactMap { step in DemoSystem.allCases.first { step.contains(" · \($0.rawValue): ") } }).count == 5)
        for layout in ["circle", "line", "cover flow", "stack", "rotary carousel", "task switcher", "compositional"] {
            #expect(steps.contains { $0.contains("→ \(layout)") }, "the tour misses \(layout)")
        }
        // Under each step, its moments: 24 items at 80×22 characters, the viewer's 6 × 12 points a character.
        #expect(lines.first?.hasPrefix("── demo: 24 items in a flow layout of 480×264 points — t=0ms views=") == true)
        let shots = lines.filter { $0.hasPrefix("── ") }
        #expect(shots.count > 2 * DemoChoreography.cycleLength)
        #expect(shots.contains { $0.hasPrefix("── thud: it bounced — ") } && shots.contains { $0.hasPrefix("── past the top: the bounce — ") })
        // The scenes as the terminal viewer draws them: the generated labels in ASCII boxes,
        // every line 80 characters between its edges.
        #expect(r.stdout.contains("#0") && r.stdout.contains("+--"))
        #expect(lines.filter { $0.hasPrefix("|") }.allSatisfy { $0.count == 82 })
        // The nearer cards of the carousel heavier (=), the farther lighter (~).
        let ring = Self.scene(after: "── a ring: the nearer cards in front", in: r.stdout).joined()
        #expect(ring.contains("#=") && ring.contains("~"), "\(ring)")
        // The session stays for others to watch; a second run replaces it.
        #expect(server.trellis("info", "demo").stdout.contains("clock: manual"))
        #expect(server.trellis("demo", "--steps", "0").status == 0)
    }

    /// At 80×24 the springy step scrolls the list to its end, and while the finger drags, the
    /// rows far from it lag: the gaps between rows, equal at rest, are not.
    @Test func theSpringyDragScrollsAndItsLagShowsAt80x24() throws {
        let server = try CLIServer()
        defer { server.stop() }
        let r = Self.pipedDemo(server, ["--steps", "4"])
        #expect(r.status == 0, "\(r.stderr)")
        /// The rows where a box of the first column starts: `+--` two columns in, `|` under it.
        func tops(_ scene: [String]) -> [Int] {
            let rows = scene.map(Array.init)
            return rows.indices.filter { r in
                r + 1 < rows.count && rows[r].count > 4 && rows[r][2...4] == ["+", "-", "-"] && rows[r + 1].count > 2 && rows[r + 1][2] == "|"
            }
        }
        func gaps(_ rows: [Int]) -> Set<Int> { Set(zip(rows, rows.dropFirst()).map { $1 - $0 }) }
        let before = Self.scene(after: "── at rest — ", in: r.stdout)
        let dragging = Self.scene(after: "── dragging: the far cells lag", in: r.stdout)
        let after = Self.scene(after: "── let go: at rest", in: r.stdout)
        #expect(gaps(tops(before)) == [6], "\(before.joined(separator: "\n"))")
        #expect(gaps(tops(after)) == [6], "\(after.joined(separator: "\n"))")
        #expect(gaps(tops(dragging)).count > 1, "rows evenly spaced mid-drag:\n\(dragging.joined(separator: "\n"))")
        // Scrolled: the first cells gone, the last ones shown.
        #expect(before.joined().contains("#0 ") && !after.joined().contains("#0 "))
        #expect(after.joined().contains("#23"))
    }

    /// Piped, the dynamics step shows the debug layer as the terminal viewer's does: its shots
    /// count the layer's shapes and draw them under the views (the collision boundary of the
    /// reference bounds down both edges, `=`), and no other step's shots have it.
    @Test func thePipedDemosDynamicsStepPrintsTheDebugLayer() throws {
        let server = try CLIServer()
        defer { server.stop() }
        let r = Self.pipedDemo(server, ["--steps", "5"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        guard let dynamics = lines.firstIndex(where: { $0.hasPrefix("══ step 5/5 · UIKit Dynamics: ") }) else {
            Issue.record("no dynamics step:\n\(r.stdout)")
            return
        }
        let before = lines[..<dynamics].filter { $0.hasPrefix("── ") }, during = lines[dynamics...].filter { $0.hasPrefix("── ") }
        #expect(!before.isEmpty && before.allSatisfy { !$0.contains(" debug=") }, "\(before)")
        #expect(during.count >= 3)
        for shot in during {
            let count = shot.split(separator: " ").first { $0.hasPrefix("debug=") }.flatMap { Int($0.dropFirst(6)) } ?? 0
            #expect(count > 0, "no debug layer on \(shot)")
        }
        // The card at rest on the floor: the boundary drawn down both edges, where no view is.
        let atRest = Self.scene(after: "── at rest — ", in: lines[dynamics...].joined(separator: "\n"))
        #expect(atRest.count > 10 && atRest.filter { $0.hasPrefix("=") && $0.hasSuffix("=") }.count > atRest.count / 2,
                "\(atRest.joined(separator: "\n"))")
        // The same place in the step before: no debug layer, no boundary.
        let springy = Self.scene(after: "── let go: at rest", in: r.stdout)
        #expect(!springy.isEmpty && !springy.contains { $0.hasPrefix("=") }, "\(springy.joined(separator: "\n"))")
    }

    @Test func everyStepOfTwoCyclesIsAcceptedByTheServer() throws {
        let server = try CLIServer()
        defer { server.stop() }
        // Two cycles on a small text area: a refused request stops the demo with exit 65.
        let r = Self.pipedDemo(server, ["--steps", "26", "--rows", "6", "--columns", "20"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("══ step 14/26 · batch updates: insert ") && r.stdout.contains("══ step 26/26 · layouts: → compositional"))
        let info = try RPCClient(path: server.socketPath).call("dynamics.list", ["session": .string("demo")])
        // The dynamics steps took back every behaviour and body they added.
        #expect(info["behaviors"] == .array([]) && info["bodies"] == .array([]), "\(info)")
    }

    /// `--headless`: one line once the session is made, the steps on its live clock, then exit 0.
    @Test func headlessDrivesALiveSessionWithoutAViewer() throws {
        let server = try CLIServer()
        defer { server.stop() }
        let r = server.trellis("demo", "--headless", "--steps", "2", "--interval", "0", "--bounds", "400x500")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "demo: session 'demo' made (400x500, live clock); driving it\n")
        #expect(r.stderr.contains("demo: 1/13 batch updates: insert ") && r.stderr.contains("demo: 2/13 batch updates: delete "), "\(r.stderr)")
        let info = server.trellis("info", "demo").stdout
        #expect(info.contains("clock: live") && info.contains("bounds: 400,500") && info.contains("items: 24"), "\(info)")
    }

    /// Someone else acting on the session (here a selection) pauses the headless demo until
    /// they leave it alone for --pause seconds: meanwhile it sends nothing.
    @Test func headlessPausesWhileSomeoneElseDrives() throws {
        let server = try CLIServer()
        defer { server.stop() }
        let demo = try ServiceProcess("trellis", ["--socket", server.socketPath, "demo", "--headless", "--interval", "2", "--pause", "60"])
        defer { demo.stop() }
        #expect(demo.line(startingWith: "demo: session 'demo' made") != nil)
        let client = try RPCClient(path: server.socketPath)
        func items() throws -> Double? { try client.call("session.info", ["session": .string("demo")])["items"]?.numberValue }
        // The first step inserts two at once; the second, 2.7 s later, would delete two.
        let deadline = Date().addingTimeInterval(10)
        while try items() != 26, Date() < deadline { usleep(20_000) }
        #expect(try items() == 26)
        _ = try client.call("select", ["session": .string("demo"), "at": .array([.number(0), .number(0)])])
        // Once the insert's animation is over, nothing moves until someone asks.
        sleep(1)
        let seq = try client.call("stats", ["session": .string("demo")])["seq"]
        sleep(3)
        #expect(try items() == 26)
        #expect(try client.call("stats", ["session": .string("demo")])["seq"] == seq, "the paused demo changed the session")
        #expect(demo.process.isRunning)
    }

    @Test func attachRefusesAPipeUnlessAskedForFramesAsText() throws {
        let server = try CLIServer()
        defer { server.stop() }
        #expect(server.trellis("new", "w", "--bounds", "400x312", "--item-size", "100x80", "--manual-clock").status == 0)
        #expect(server.trellis("reload", "w", "--items", "3").status == 0)
        var r = server.trellis("attach", "w")
        #expect(r.status == 64)
        #expect(r.stderr.contains("stdout is not one"))
        // The C locale: ASCII boxes.
        r = runTrellis(["--socket", server.socketPath, "attach", "w", "--frames", "1", "--size", "100x40"],
                       environment: ["LANG": "C", "LC_ALL": "C"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        // 4 points a column, 8 a row: the middle item (x 150…250) spans columns 38…62, label on row 5.
        #expect(lines.count >= 40)
        #expect(lines[5].contains("#1") && lines[0].hasPrefix("+-----------------------+"))
        #expect(lines[39].contains("w · seq 0 · 0 fps · views 3 · pooled 0 · created 3 · reused 0"))
        r = server.trellis("attach", "nothing", "--frames", "1")
        #expect(r.status == 65 && r.stderr.contains("no session named 'nothing'"))
    }
}
