import Foundation
#if canImport(FoundationXML)
import FoundationXML  // XMLDocument lives here on Linux
#endif
import Testing
import TrellisTestSupport
import TrellisClient

/// `trellis run` as CI runs it: the shipped examples embedded and against a real trellisd,
/// failing scripts, JUnit reports, syntax errors.
@Suite struct RunIntegrationTests {
    /// The repository's examples/ folder (this file is Tests/TrellisClientTests/…).
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("examples")

    static func exampleScripts() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: examples.path)
            .filter { $0.hasSuffix(".trellis") }.sorted()
    }

    /// Runs `trellis run` in `directory`, so script names in the TAP are relative and equal.
    static func run(_ arguments: [String], in directory: String) -> CLIResult {
        runTrellis(["run"] + arguments, in: directory)
    }

    @Test func everyExamplePassesEmbeddedAndAgainstAServerWithTheSameTAP() throws {
        let scripts = try Self.exampleScripts()
        #expect(scripts.count >= 4)
        let server = try CLIServer()
        defer { server.stop() }
        for script in scripts {
            let embedded = Self.run([script], in: Self.examples.path)
            #expect(embedded.status == 0, "\(script) embedded:\n\(embedded.stdout)\(embedded.stderr)")
            #expect(embedded.stdout.hasPrefix("TAP version 13\n"))
            #expect(!embedded.stdout.contains("not ok"))
            let remote = Self.run([script, "--socket", server.socketPath], in: Self.examples.path)
            #expect(remote.status == 0, "\(script) --socket:\n\(remote.stdout)\(remote.stderr)")
            // The same TAP but for the comment naming the run's session prefix.
            var lines = remote.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count > 1 && lines[1].hasPrefix("# sessions are named run-"))
            if lines.count > 1 { lines.remove(at: 1) }
            #expect(lines.joined(separator: "\n") == embedded.stdout, "\(script): the two modes differ")
        }
        // The scripts cleaned up after themselves on the shared server.
        #expect(server.trellis("ls").stdout == "")
    }

    /// Issue 25: a script whose `new grid` met someone else's `grid` carried on and reset it.
    /// Against a server, a run's sessions have names of their own; with names as written, the
    /// failed `new` ends the run before any line can touch the other session.
    @Test func aScriptNeverChangesASessionItDidNotCreate() throws {
        let server = try CLIServer()
        defer { server.stop() }
        #expect(server.trellis("new", "grid", "--manual-clock").status == 0)
        #expect(server.trellis("reload", "grid", "--items", "200").status == 0)
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try """
            new grid
            reload grid --items 60
            expect grid items==60
            scroll-config grid --paging true
            kill nowhere
            expect-error unknown_session "no session named 'nowhere'"
            """.write(toFile: directory + "/grid.trellis", atomically: true, encoding: .utf8)
        try "new other\nexpect other items==0\n".write(toFile: directory + "/other.trellis", atomically: true, encoding: .utf8)

        var r = Self.run(["grid.trellis", "--socket", server.socketPath], in: directory)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        let comment = r.stdout.split(separator: "\n").first { $0.hasPrefix("# sessions are named run-") }
        #expect(comment != nil, "\(r.stdout)")
        #expect(r.stdout.hasSuffix("ok 1 - expect grid items==60 (grid.trellis:3)\nok 2 - expect-error unknown_session \"no session named 'nowhere'\" after kill nowhere (grid.trellis:6)\n1..2\n"))
        func untouched() {
            let info = server.trellis("info", "grid").stdout
            #expect(info.contains("items: 200\n") && info.contains("scroll.configuration.pagingEnabled: false\n"), "\(info)")
            #expect(server.trellis("ls").stdout.split(separator: "\n").map { $0.split(separator: ":")[0] } == ["grid"])
        }
        untouched()

        r = Self.run(["grid.trellis", "other.trellis", "--socket", server.socketPath, "--names-as-written"], in: directory)
        #expect(r.status == 65)
        #expect(r.stdout.hasPrefix("TAP version 13\nnot ok 1 - new grid (grid.trellis:1)\n"), "\(r.stdout)")
        #expect(r.stdout.hasSuffix("\nBail out! grid.trellis:1: 'new grid' failed, and the rest of the file would drive a session it did not create\n"), "\(r.stdout)")
        #expect(!r.stdout.contains("1..") && !r.stdout.contains("other.trellis"))
        #expect(r.stderr == "trellis: bailed out at grid.trellis:1: 'new grid' failed, and the rest of the file would drive a session it did not create; 1 file not run\n")
        untouched()
    }

    @Test func aFailingScriptExits65WithDiagnostics() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try """
            new f --item-size 100x100
            reload f --items 5
            expect f 0:4 frame=137.5,110,100,100
            expect f 0:4 frame=0,0,100,100 alpha=1
            delete f 0:9
            reload f --items 3
            expect-error invalid_update
            expect f visible=3
            """.write(toFile: directory + "/fail.trellis", atomically: true, encoding: .utf8)
        let r = Self.run(["fail.trellis"], in: directory)
        #expect(r.status == 65)
        #expect(r.stderr == "trellis: 3 of 5 tests failed\n")
        #expect(r.stdout == """
            TAP version 13
            ok 1 - expect f 0:4 frame=137.5,110,100,100 (fail.trellis:3)
            not ok 2 - expect f 0:4 frame=0,0,100,100 alpha=1 (fail.trellis:4)
              ---
              at: "fail.trellis:4"
              expected: "frame=0,0,100,100 alpha=1"
              actual: "frame=137.5,110,100,100 alpha=1"
              ...
            not ok 3 - delete f 0:9 (fail.trellis:5)
              ---
              at: "fail.trellis:5"
              expected: "success"
              actual: "invalid_update: attempt to delete item 9 from section 0 which only contains 5 items before the update"
              output: |
                attempt to delete item 9 from section 0 which only contains 5 items before the update
              ...
            not ok 4 - expect-error invalid_update after reload f --items 3 (fail.trellis:7)
              ---
              at: "fail.trellis:7"
              expected: "invalid_update"
              actual: "the command succeeded"
              output: |
                3 items in 1 section
              ...
            ok 5 - expect f visible=3 (fail.trellis:8)
            1..5

            """)
    }

    @Test func junitReportIsWellFormedWithTheRightCounts() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try """
            new j
            reload j --items 2
            expect j 0:0 size=50x50
            expect j 0:1 alpha<1 id="<a&b>"
            """.write(toFile: directory + "/one.trellis", atomically: true, encoding: .utf8)
        try """
            new k
            expect k visible=0 # <nothing> & "so on"
            kill k
            expect-error invalid_update "no such"
            """.write(toFile: directory + "/two.trellis", atomically: true, encoding: .utf8)
        let r = Self.run(["one.trellis", "two.trellis", "--junit", "report.xml"], in: directory)
        #expect(r.status == 65)
        let document = try XMLDocument(contentsOf: URL(fileURLWithPath: directory + "/report.xml"))
        let root = try #require(document.rootElement())
        #expect(root.name == "testsuites")
        #expect(root.attribute(forName: "tests")?.stringValue == "4")
        #expect(root.attribute(forName: "failures")?.stringValue == "2")
        let suites = root.elements(forName: "testsuite")
        #expect(suites.map { $0.attribute(forName: "name")?.stringValue } == ["one.trellis", "two.trellis"])
        #expect(suites.map { $0.elements(forName: "testcase").count } == [2, 2])
        #expect(suites.map { $0.attribute(forName: "failures")?.stringValue } == ["1", "1"])
        let failures = suites.flatMap { $0.elements(forName: "testcase") }.compactMap { $0.elements(forName: "failure").first }
        #expect(failures.count == 2)
        #expect(failures[0].stringValue?.contains("at: one.trellis:4") == true)
        #expect(failures[1].attribute(forName: "message")?.stringValue?.contains("the command succeeded") == true)
        // Every test line of the TAP is a testcase of the report.
        #expect(r.stdout.split(separator: "\n").filter { $0.hasPrefix("ok ") || $0.hasPrefix("not ok ") }.count == 4)
    }

    @Test func aSyntaxErrorExits64WithFileAndLineBeforeRunningAnything() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "new s\nreload s --items 3\ninsert s 0:a\n".write(toFile: directory + "/bad.trellis", atomically: true, encoding: .utf8)
        var r = Self.run(["bad.trellis"], in: directory)
        #expect(r.status == 64)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == "trellis: bad.trellis:3: '0:a': expected an index path section:item, e.g. 0:3\n")
        try "new s\nexpect s 0:1 colour=red\n".write(toFile: directory + "/bad.trellis", atomically: true, encoding: .utf8)
        r = Self.run(["bad.trellis"], in: directory)
        #expect(r.status == 64)
        #expect(r.stderr.hasPrefix("trellis: bad.trellis:2: 'colour': unknown attribute"))
        try "new s\nrun other.trellis\n".write(toFile: directory + "/bad.trellis", atomically: true, encoding: .utf8)
        r = Self.run(["bad.trellis"], in: directory)
        #expect(r.status == 64 && r.stderr == "trellis: bad.trellis:2: 'run' cannot be used inside a script\n")
        r = Self.run(["missing.trellis"], in: directory)
        #expect(r.status == 66 && r.stderr == "trellis: cannot read missing.trellis\n")
        r = Self.run(["--json", "bad.trellis"], in: directory)
        #expect(r.status == 64 && r.stderr.contains("trellis run writes TAP") && r.stdout.isEmpty)
    }

    @Test func sceneFilesAreReadRelativeToTheScript() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/t/scenes", withIntermediateDirectories: true)
        let scene = #"{"bounds":[200,200],"contentOffset":[0,0],"contentSize":[200,0],"time":0,"views":[]}"#
        try scene.write(toFile: directory + "/t/scenes/empty.json", atomically: true, encoding: .utf8)
        try """
            new e --bounds 200x200
            expect e scene == scenes/empty.json
            reload e --items 1
            expect e scene == scenes/empty.json
            """.write(toFile: directory + "/t/scene.trellis", atomically: true, encoding: .utf8)
        let r = Self.run(["t/scene.trellis"], in: directory)
        #expect(r.status == 65)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("ok 1 - expect e scene == scenes/empty.json (t/scene.trellis:2)"))
        #expect(lines.contains("not ok 2 - expect e scene == scenes/empty.json (t/scene.trellis:4)"))
        #expect(lines.contains(#"  expected: "scene.contentSize[1] = 0 (scenes/empty.json)""#))
    }

    static func scratch() throws -> String {
        let directory = CLIServer.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }
}
