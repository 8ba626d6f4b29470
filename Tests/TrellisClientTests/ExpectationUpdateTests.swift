import Foundation
import Testing
import TrellisTestSupport
import TrellisClient

/// `trellis run --update`: failed expect lines take what the run found, equality checks only.
@Suite struct ExpectationUpdateTests {
    @Test func equalityChecksTakeTheFoundValuesAndBoundsStay() {
        #expect(ExpectationUpdate.rewrite("expect g visible=12 offset=0,0 contentSize=300x1090 tolerance=0.5",
                                          actual: "visible=10 offset=0,0 contentSize=300x1640")
                == "expect g visible=10 offset=0,0 contentSize=300x1640 tolerance=0.5")
        #expect(ExpectationUpdate.rewrite("expect g scroll dragging==false speed<1 offset=0,60",
                                          actual: "dragging=true speed=40 offset=0,50")
                == "expect g scroll dragging==true speed<1 offset=0,50")
        #expect(ExpectationUpdate.rewrite("expect g scene 0:3 frame=1,2,3,4", actual: "frame=5,6,7,8 alpha=1")
                == "expect g scene 0:3 frame=5,6,7,8")
        // Nothing to take: a bound alone, a value already right, a line with quotes.
        #expect(ExpectationUpdate.rewrite("expect g scroll speed<1", actual: "speed=40") == nil)
        #expect(ExpectationUpdate.rewrite("expect g pool.cell.created<=20 visible!=3", actual: "pool.cell.created=30 visible=3") == nil)
        #expect(ExpectationUpdate.rewrite("expect g visible=3", actual: "visible=3") == nil)
        #expect(ExpectationUpdate.rewrite("expect g \"item:it's\" frame=1,2,3,4", actual: "frame=5,6,7,8") == nil)
        #expect(ExpectationUpdate.rewrite("expect g 0:1 id=a", actual: "id=(none)") == nil)
    }

    @Test func runUpdateRewritesTheFileShowsTheDiffAndTheNextRunPasses() throws {
        let directory = TrellisdProcess.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/u.trellis"
        let script = """
            new g --item-size 100x100 --bounds 300x400
            reload g --items 30
              expect g visible=12 contentSize=300x1090 tolerance=0.5
            scroll g --to 0,100
            expect g scroll dragging==true offset=0,60
            expect g 0:0 frame=0,0,100,100

            """
        try script.write(toFile: file, atomically: true, encoding: .utf8)
        var r = runTrellis(["run", "--update", file])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("not ok 1 - expect g visible=12"))
        #expect(r.stderr.contains("\(file):3:\n- expect g visible=12 contentSize=300x1090 tolerance=0.5\n+ expect g visible=10 contentSize=300x1640 tolerance=0.5\n"), "\(r.stderr)")
        #expect(r.stderr.contains("+ expect g scroll dragging==false offset=0,100\n"))
        #expect(r.stderr.hasSuffix("trellis: 2 expect lines updated; run again to check them\n"))
        let rewritten = try String(contentsOfFile: file, encoding: .utf8)
        #expect(rewritten == script.replacingOccurrences(of: "visible=12 contentSize=300x1090", with: "visible=10 contentSize=300x1640")
                                   .replacingOccurrences(of: "dragging==true offset=0,60", with: "dragging==false offset=0,100"))
        r = runTrellis(["run", file])
        #expect(r.status == 0 && !r.stdout.contains("not ok"), "\(r.stdout)")
        // A bound cannot be updated: the run still fails, and says so.
        try (rewritten + "expect g scroll speed>100\n").write(toFile: file, atomically: true, encoding: .utf8)
        r = runTrellis(["run", "--update", file])
        #expect(r.status == 65 && r.stderr.contains("1 of 4 tests failed (0 expect lines updated, the others cannot be)"), "\(r.stderr)")
    }
}
