import Foundation
import Testing
import TrellisTestSupport
import TrellisClient

/// `trellis plot` against a real server: the numbers are physics' closed forms, the session
/// plotted never moves, the copy it steps is gone afterwards (whatever happened), the chart
/// has its axes, ticks and one line per series, and bad requests are refused before anything
/// is sent.
@Suite struct PlotCLITests {
    /// A card falling under gravity (1000 pt/s²) in a tall view, nothing to stop it.
    static func freeFall(_ server: CLIServer) {
        for command in [["new", "drop", "--manual-clock", "--bounds", "400x4000"],
                        ["body", "add", "drop", "card", "--at", "200,100", "--size", "100x100"],
                        ["dynamics", "add", "drop", "gravity", "body:card"]] {
            let r = runTrellis(["--socket", server.socketPath] + command)
            #expect(r.status == 0, "\(command): \(r.stderr)")
        }
    }

    /// The CSV's rows as numbers (the header left out).
    static func rows(_ csv: String) -> [[Double]] {
        csv.split(separator: "\n").dropFirst().map { $0.split(separator: ",").map { Double(String($0)) ?? .nan } }
    }

    @Test func aFreeFallIsHalfGTSquaredAndTheSessionDoesNotMove() throws {
        let server = try CLIServer()
        defer { server.stop() }
        Self.freeFall(server)
        let r = server.trellis("plot", "drop", "body:card", "--property", "center.y", "--property", "velocity.y", "--to", "0.5", "--every", "1/20")
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.first == "time (s),body:card center.y (pt),body:card velocity.y (pt/s)", "\(r.stdout)")
        let rows = Self.rows(r.stdout)
        #expect(rows.count == 11)
        for row in rows {
            let t = row[0]
            // y = 100 + ½·g·t², v = g·t: exact at any step (issue 27's integration).
            #expect(abs(row[1] - (100 + 500 * t * t)) < 1e-6, "t = \(t): \(row[1])")
            #expect(abs(row[2] - 1000 * t) < 1e-6, "t = \(t): \(row[2])")
        }
        #expect(rows.map { $0[0] } == (0...10).map { Double($0) / 20 })
        // The session itself is where it was, at time 0, and the copy is gone.
        let item = server.trellis("dynamics", "item", "drop", "body:card")
        #expect(item.stdout.contains("center=200,100 "), "\(item.stdout)")
        #expect(server.trellis("--json", "info", "drop").stdout.contains(#""time":0"#))
        #expect(server.trellis("ls").stdout == "drop: flow 400x4000, 0 items in 0 sections, manual clock, 0 viewers\n")
    }

    @Test func theChartHasAPanelPerUnitAxesTicksAndALinePerSeries() throws {
        let server = try CLIServer()
        defer { server.stop() }
        Self.freeFall(server)
        let directory = CLIServer.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let svg = directory + "/fall.svg", csv = directory + "/fall.csv"
        let r = server.trellis("plot", "drop", "body:card", "--property", "center", "--property", "speed",
                               "--from", "100ms", "--to", "0.6s", "--svg", svg, "--csv", csv)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "\(svg): chart of 3 series, 31 samples each\n\(csv): numbers of 3 series, 31 samples each\n", "\(r.stdout)")
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(text.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(text.components(separatedBy: "class=\"panel\"").count - 1 == 2)
        #expect(text.contains("data-unit=\"pt\"") && text.contains("data-unit=\"pt/s\""))
        for series in ["body:card center.x", "body:card center.y", "body:card speed"] {
            #expect(text.contains("data-series=\"\(series)\""), "\(series)")
        }
        // 31 points in each line, the time axis from 0.1 s to 0.6 s in round ticks, units named.
        let points = text.components(separatedBy: "points=\"").dropFirst().map { $0.prefix { $0 != "\"" }.split(separator: " ").count }
        #expect(points == [31, 31, 31])
        #expect(text.contains(">0.1</text>") && text.contains(">0.6</text>") && text.contains(">time (s)</text>"))
        #expect(text.contains(">speed (pt/s)</text>") && text.contains(">(pt)</text>"))
        let numbers = try String(contentsOfFile: csv, encoding: .utf8)
        #expect(numbers.hasPrefix("time (s),body:card center.x (pt),body:card center.y (pt),body:card speed (pt/s)\n0.1,200,"))
        let first = Self.rows(numbers)[0]
        #expect(abs(first[2] - 105) < 1e-6 && abs(first[3] - 100) < 1e-6, "\(first)")
    }

    @Test func anAnimationsVelocityIsTheRateOfChangeOfItsCentre() throws {
        let server = try CLIServer()
        defer { server.stop() }
        #expect(server.trellis("new", "s", "--manual-clock").status == 0)
        #expect(server.trellis("reload", "s", "--items", "200").status == 0)
        // The scroll decelerating after a fling: the offset rises ever more slowly.
        #expect(server.trellis("fling", "s", "--velocity", "0,-800").status == 0)
        let r = server.trellis("plot", "s", "--property", "offset.y", "--property", "scroll.velocity.y", "--to", "3", "--every", "0.1")
        #expect(r.status == 0, "\(r.stderr)")
        let rows = Self.rows(r.stdout)
        #expect(rows.count == 31)
        for (a, b) in zip(rows, rows.dropFirst()) {
            #expect(b[1] >= a[1] && b[2] <= a[2] && b[2] >= 0, "\(a) → \(b)")
        }
        #expect(rows[0][2] > 700 && rows.last![2] < 50, "\(r.stdout)")
        // An item a batch animates: its velocity is its centre's rate of change.
        #expect(server.trellis("scroll", "s", "--to", "0,0").status == 0)
        #expect(server.trellis("move", "s", "0:0", "0:3", "--duration", "1", "--curve", "linear").status == 0)
        let moved = Self.rows(server.trellis("plot", "s", "item0", "--property", "center.x", "--property", "velocity.x", "--to", "0.9", "--every", "0.1").stdout)
        #expect(moved.count == 10)
        for row in moved.dropFirst().dropLast() {
            #expect(row[2] > 0, "\(moved)")
        }
    }

    @Test func badRequestsAreRefusedAndLeaveNoCopyBehind() throws {
        let server = try CLIServer()
        defer { server.stop() }
        Self.freeFall(server)
        let refusals: [(arguments: [String], status: Int32, says: String)] = [
            (["plot", "drop", "body:card", "--to", "1"], 64, "give at least one --property"),
            (["plot", "drop", "--property", "center.y", "--to", "1"], 64, "center.y is an element's property: name the element"),
            (["plot", "drop", "body:card", "--property", "height", "--to", "1"], 64, "'height': expected a property"),
            (["plot", "drop", "body:card", "--property", "angle", "--to", "0"], 64, "0 ≤ from < to ≤ 3600 s"),
            (["plot", "drop", "body:card", "--property", "angle", "--from", "2", "--to", "1"], 64, "0 ≤ from < to ≤ 3600 s"),
            (["plot", "drop", "body:card", "--property", "angle", "--to", "3601"], 64, "0 ≤ from < to ≤ 3600 s"),
            (["plot", "drop", "body:card", "--property", "angle", "--to", "1", "--every", "0.0001"], 64, "--every must be at least 1ms"),
            (["plot", "drop", "body:card", "--property", "angle", "--to", "1", "--every", "1/0"], 64, "a fraction such as 1/60"),
            (["plot", "drop", "body:card", "--property", "angle", "--to", "3600", "--every", "1ms"], 64, "is more than 100000"),
            (["plot", "drop", "body:card", "--property", "angle", "--to", "1", "--svg", "-", "--csv", "-"], 64, "cannot both go to standard output"),
            (["plot", "drop", "ghost", "--property", "angle", "--to", "1"], 65, "ghost"),
            (["plot", "nope", "body:card", "--property", "angle", "--to", "1"], 65, "no session named 'nope'"),
        ]
        for (arguments, status, says) in refusals {
            let r = runTrellis(["--socket", server.socketPath] + arguments)
            #expect(r.status == status, "\(arguments): \(r.status) \(r.stderr)")
            #expect(r.stderr.contains(says), "\(arguments): \(r.stderr)")
        }
        // An output that cannot be written: exit 73, and the copy is gone all the same.
        let r = server.trellis("plot", "drop", "body:card", "--property", "angle", "--to", "0.1", "--svg", "/nonexistent-dir/x.svg")
        #expect(r.status == 73, "\(r.stderr)")
        #expect(server.trellis("ls").stdout == "drop: flow 400x4000, 0 items in 0 sections, manual clock, 0 viewers\n")
    }

    /// The README's chart is the one its commands draw (TRELLIS_UPDATE_PICTURES=1 writes it).
    @Test func theReadmesChartIsWhatItsCommandsDraw() throws {
        let server = try CLIServer()
        defer { server.stop() }
        let directory = CLIServer.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for command in [["new", "thud", "--manual-clock", "--bounds", "375x667"],
                        ["body", "add", "thud", "card", "--at", "187.5,100", "--size", "100x100", "--data", #"{"color": "orange"}"#],
                        ["dynamics", "add", "thud", "collision", "body:card", "--bounds-boundary"],
                        ["dynamics", "add", "thud", "gravity", "body:card"],
                        ["dynamics", "add", "thud", "item", "body:card", "--elasticity", "0.6"],
                        ["plot", "thud", "body:card", "--property", "center.y", "--property", "velocity.y", "--to", "2.5",
                         "--svg", directory + "/thud.svg"]] {
            let r = runTrellis(["--socket", server.socketPath] + command)
            #expect(r.status == 0, "\(command): \(r.stderr)")
        }
        let drawn = try String(contentsOfFile: directory + "/thud.svg", encoding: .utf8)
        let picture = ReadmeShellBlockTests.root + "/docs/images/plot-thud.svg"
        if ProcessInfo.processInfo.environment["TRELLIS_UPDATE_PICTURES"] == "1" {
            try drawn.write(toFile: picture, atomically: true, encoding: .utf8)
        }
        #expect(try String(contentsOfFile: picture, encoding: .utf8) == drawn,
                "docs/images/plot-thud.svg is not what the README's commands draw; TRELLIS_UPDATE_PICTURES=1 swift test --filter theReadmesChart writes it")
        // The physics in it: the card leaves the floor at 0.6 times its impact speed.
        let csv = server.trellis("plot", "thud", "body:card", "--property", "velocity.y", "--to", "2.5", "--every", "1/240")
        let v = Self.rows(csv.stdout).map { $0[1] }
        guard let (before, after) = zip(v, v.dropFirst()).first(where: { $0 > 0 && $1 < 0 }) else {
            Issue.record("no bounce in \(v)")
            return
        }
        // √(2·1000·517) ≈ 1017 pt/s at the floor; the samples are 1/240 s apart, so gravity
        // changes each side by at most 4.2 pt/s.
        #expect(abs(before - 1017) < 10 && abs(-after / before - 0.6) < 0.02, "\(before) → \(after)")
    }

    @Test func forkCopiesASessionFromTheShell() throws {
        let server = try CLIServer()
        defer { server.stop() }
        Self.freeFall(server)
        var r = server.trellis("fork", "drop", "what-if")
        #expect(r.status == 0 && r.stdout == "what-if: flow 400x4000, 0 items in 0 sections, manual clock, 0 viewers\n", "\(r.stdout)\(r.stderr)")
        #expect(server.trellis("advance", "what-if", "250ms").status == 0)
        #expect(server.trellis("dynamics", "item", "what-if", "body:card").stdout.contains("center=200,131.25 "))
        #expect(server.trellis("dynamics", "item", "drop", "body:card").stdout.contains("center=200,100 "))
        r = server.trellis("fork", "drop", "what-if")
        #expect(r.status == 65 && r.stderr.contains("a session named 'what-if' already exists"), "\(r.stderr)")
        r = server.trellis("fork", "drop", "what-if", "--replace")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(server.trellis("dynamics", "item", "what-if", "body:card").stdout.contains("center=200,100 "))
    }
}

/// Round ticks: the steps people read (1, 2, 2.5, 5 × 10ⁿ), covering the data, every label with
/// as many decimals as the step needs (0.0, 0.2, …, as charting tools write them).
@Suite struct AxisTicksTests {
    @Test func stepsAreRoundAndCoverTheData() {
        var t = AxisTicks(covering: 0, 1)
        #expect(t.step == 0.2 && t.lower == 0 && t.upper == 1)
        #expect(t.values.map(t.label) == ["0.0", "0.2", "0.4", "0.6", "0.8", "1.0"])
        t = AxisTicks(covering: 100, 131.25)
        #expect(t.step == 10 && t.lower == 100 && t.upper == 140)
        t = AxisTicks(covering: -0.3, 0.3)
        #expect(t.values.map(t.label) == ["-0.4", "-0.2", "0.0", "0.2", "0.4"])
        t = AxisTicks(covering: 0, 12, target: 5)
        #expect(t.step == 2.5 && t.values.map(t.label) == ["0.0", "2.5", "5.0", "7.5", "10.0", "12.5"])
        t = AxisTicks(covering: 0, 0.5, target: 8)
        #expect(t.values.map(t.label) == ["0.0", "0.1", "0.2", "0.3", "0.4", "0.5"])
    }

    @Test func aFlatLineSitsMidChart() {
        let t = AxisTicks(covering: 5, 5)
        #expect(t.lower < 5 && t.upper > 5)
        let zero = AxisTicks(covering: 0, 0)
        #expect(zero.lower == -1 && zero.upper == 1)
    }
}
