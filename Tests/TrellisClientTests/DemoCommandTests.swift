import Foundation
import Testing
import TrellisTestSupport
import TrellisClient

/// `trellis demo` and `trellis attach` without a terminal (piped, as in CI).
@Suite struct DemoCommandTests {
    @Test func demoWithoutATerminalRunsItsStepsAsTextAndExits0() throws {
        let server = try CLIServer()
        defer { server.stop() }
        let r = server.trellis("demo", "--steps", "2")
        #expect(r.status == 0, "\(r.stderr)")
        let titles = r.stdout.split(separator: "\n").filter { $0.hasPrefix("── ") }
        #expect(titles.count == 5)
        #expect(titles.first?.hasPrefix("── demo: 12 items, flow layout — t=0ms views=12 created=12") == true)
        #expect(titles.last?.hasPrefix("── step 2/2: ") == true && titles.last?.contains(", done — t=2000ms") == true)
        // The scene as text: the generated labels in boxes.
        #expect(r.stdout.contains("#0") && r.stdout.contains("+--"))
        // The session stays for others to watch; a second run replaces it.
        #expect(server.trellis("info", "demo").stdout.contains("clock: manual"))
        #expect(server.trellis("demo", "--steps", "0").status == 0)
    }

    @Test func everyStepOfTwoCyclesIsAcceptedByTheServer() throws {
        let server = try CLIServer()
        defer { server.stop() }
        // Sixteen steps: inserts, deletes, moves, every layout change and a springy drag; a refused one exits 65.
        let r = server.trellis("demo", "--steps", "16", "--rows", "4", "--columns", "10")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("step 4/16: layout → line") && r.stdout.contains("step 6/16: layout → carousel")
                && r.stdout.contains("step 9/16: layout → circle") && r.stdout.contains("step 12/16: layout → flow")
                && r.stdout.contains("step 13/16: layout → springy") && r.stdout.contains("step 14/16: drag by 0,-300 and let go"))
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
