import Foundation
import Testing
import TrellisTestSupport
import TrellisClient

/// The animator's step rate from the shell: `trellis new --step-rate`, `trellis dynamics rate`,
/// what they print, their refusals, and the same commands in a `trellis run` script.
@Suite struct StepRateCLITests {
    @Test func chosenAtCreationChangedAndPrinted() throws {
        let server = try CLIServer()
        defer { server.stop() }
        var r = server.trellis("new", "s", "--manual-clock", "--step-rate", "120")
        #expect(r.status == 0 && r.stdout == "s: flow 375x812, 0 items in 0 sections, manual clock, 0 viewers, dynamics at 120 Hz\n", "\(r.stdout)\(r.stderr)")
        // The default goes unsaid.
        r = server.trellis("new", "plain", "--manual-clock")
        #expect(r.stdout == "plain: flow 375x812, 0 items in 0 sections, manual clock, 0 viewers\n")
        #expect(server.trellis("dynamics", "rate", "plain").stdout == "60 Hz\n")
        #expect(server.trellis("dynamics", "rate", "s").stdout == "120 Hz\n")
        r = server.trellis("dynamics", "rate", "s", "240")
        #expect(r.status == 0 && r.stdout == "240 Hz\n", "\(r.stdout)\(r.stderr)")
        #expect(server.trellis("dynamics", "ls", "s").stdout == "running: false\nstep rate: 240 Hz\nitems: none\nno behaviours\n")
        r = server.trellis("--json", "dynamics", "rate", "s", "60")
        #expect(r.stdout.contains(#""previous":240"#) && r.stdout.contains(#""stepRate":60"#), "\(r.stdout)")
        #expect(server.trellis("--json", "info", "s").stdout.contains(#""dynamicsStepRate":60"#))
    }

    @Test func otherRatesAreRefusedBeforeAnythingIsSent() throws {
        let server = try CLIServer()
        defer { server.stop() }
        #expect(server.trellis("new", "s", "--manual-clock", "--step-rate", "240").status == 0)
        for rate in ["30", "61", "1000000000", "0", "480"] {
            var r = server.trellis("new", "x" + rate, "--manual-clock", "--step-rate", rate)
            #expect(r.status == 65 && r.stderr == "trellis: step rate \(rate): expected one of 60, 120, 240 (steps per second)\n", "\(r.stderr)")
            r = server.trellis("dynamics", "rate", "s", rate)
            #expect(r.status == 65 && r.stderr == "trellis: step rate \(rate): expected one of 60, 120, 240 (steps per second)\n", "\(r.stderr)")
        }
        var r = server.trellis("dynamics", "rate", "s", "--", "-60")
        #expect(r.status == 65 && r.stderr.contains("expected one of 60, 120, 240"), "\(r.stderr)")
        // Not a whole number: the command line's usage error.
        for word in ["120.5", "fast", "1e9"] {
            r = server.trellis("dynamics", "rate", "s", word)
            #expect(r.status == 64, "\(word): \(r.stderr)")
        }
        // Nothing changed, and no session was made.
        #expect(server.trellis("dynamics", "rate", "s").stdout == "240 Hz\n")
        #expect(server.trellis("ls").stdout == "s: flow 375x812, 0 items in 0 sections, manual clock, 0 viewers, dynamics at 240 Hz\n")
        r = server.trellis("dynamics", "rate", "nope", "120")
        #expect(r.status == 65 && r.stderr.contains("no session named 'nope'"), "\(r.stderr)")
    }

    @Test func theHelpSaysTheAllowedValues() {
        let new = runTrellis(["new", "--help"], in: FileManager.default.currentDirectoryPath)
        #expect(new.stdout.contains("--step-rate <hz>"))
        #expect(new.stdout.contains("one of 60, 120, 240"))
        let rate = runTrellis(["dynamics", "rate", "--help"], in: FileManager.default.currentDirectoryPath)
        #expect(rate.stdout.contains("one of 60, 120, 240"))
    }

    /// The same commands in a script, embedded and against a server, with the same TAP.
    @Test func aScriptChoosesChangesAndExpectsTheRate() throws {
        let directory = CLIServer.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try """
            new s --step-rate 120 --bounds 300x400
            expect s dynamics stepRate==120
            body add s card --at 150,100 --size 50x50
            dynamics add s gravity body:card
            advance s 100ms
            expect s dynamics running==true stepRate==120
            dynamics rate s 240
            expect s dynamics stepRate==240
            dynamics rate s 61
            expect-error invalid_params "one of 60, 120, 240"
            new t --step-rate 30
            expect-error invalid_params "one of 60, 120, 240"
            kill s
            """.write(toFile: directory + "/rate.trellis", atomically: true, encoding: .utf8)
        let embedded = runTrellis(["run", "rate.trellis"], in: directory)
        #expect(embedded.status == 0, "\(embedded.stdout)\(embedded.stderr)")
        #expect(!embedded.stdout.contains("not ok"))
        #expect(embedded.stdout.contains("ok 3 - expect s dynamics stepRate==240 (rate.trellis:8)"), "\(embedded.stdout)")
        #expect(embedded.stdout.hasSuffix("1..5\n"), "\(embedded.stdout)")

        let server = try CLIServer()
        defer { server.stop() }
        let remote = runTrellis(["run", "rate.trellis", "--socket", server.socketPath], in: directory)
        #expect(remote.status == 0, "\(remote.stdout)\(remote.stderr)")
        var lines = remote.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.count > 1 { lines.remove(at: 1) }
        #expect(lines.joined(separator: "\n") == embedded.stdout)

        // A wrong expectation fails with what was found.
        try "new u --step-rate 240\nexpect u dynamics stepRate==60\n".write(toFile: directory + "/wrong.trellis", atomically: true, encoding: .utf8)
        let wrong = runTrellis(["run", "wrong.trellis"], in: directory)
        #expect(wrong.status == 65)
        #expect(wrong.stdout.contains("stepRate=240"), "\(wrong.stdout)")
    }
}
