import Foundation
import Testing
import TrellisTestSupport

/// Long work shows one updating line of progress on stderr when stderr is a terminal, and
/// nothing at all when it is piped: output read by programs stays exactly the same.
@Suite struct ProgressTests {
    static let scriptCommand = "/usr/bin/script"

    /// `trellis arguments…` on a pseudo-terminal (util-linux `script`), as a person runs it:
    /// everything the terminal received, stdout and stderr together.
    func onTerminal(_ arguments: [String], in directory: String? = nil) throws -> CLIResult {
        let command = ([builtExecutable("trellis").path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.scriptCommand)
        process.arguments = ["-qfec", command, "/dev/null"]
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        // Drawn from the first update, however fast this machine does the work.
        process.environment = ProcessInfo.processInfo.environment.merging(["TRELLIS_PROGRESS_AFTER_MS": "0"]) { $1 }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let bytes = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLIResult(status: process.terminationStatus, stdout: String(decoding: bytes, as: UTF8.self), stderr: "")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: scriptCommand)))
    func aLongReloadShowsProgressOnATerminalOnly() throws {
        let server = try CLIServer()
        defer { server.stop() }
        #expect(server.trellis("new", "big", "--manual-clock").status == 0)
        let piped = server.trellis("reload", "big", "--items", "20000")
        #expect(piped.status == 0)
        #expect(piped.stdout == "20000 items in 1 section\n" && piped.stderr.isEmpty, "\(piped.stderr)")
        let shown = try onTerminal(["--socket", server.socketPath, "reload", "big", "--items", "20000"])
        #expect(shown.status == 0)
        #expect(shown.stdout.contains("\r\u{1B}[Kreload big: sending and loading 20000 items"), "\(shown.stdout)")
        // Erased before the result: the line a person is left with is the result alone.
        #expect(shown.stdout.hasSuffix("\r\u{1B}[K20000 items in 1 section\r\n"), "\(shown.stdout)")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: scriptCommand)))
    func aRunOfManyFilesShowsProgressOnATerminalOnly() throws {
        let directory = CLIServer.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let files = (1...3).map { "f\($0).trellis" }
        for file in files {
            try "new s\nreload s --items 20000\nexpect s items==20000\nadvance s 1s\nexpect s items==20000\n"
                .write(toFile: directory + "/" + file, atomically: true, encoding: .utf8)
        }
        let piped = runTrellis(["run"] + files, in: directory)
        #expect(piped.status == 0 && piped.stderr.isEmpty, "\(piped.stderr)")
        #expect(!piped.stdout.contains("\r") && piped.stdout.hasSuffix("ok 6 - expect s items==20000 (f3.trellis:5)\n1..6\n"))
        let shown = try onTerminal(["run"] + files, in: directory)
        #expect(shown.status == 0)
        #expect(shown.stdout.contains("\r\u{1B}[Krun: file 3 of 3 (f3.trellis): "), "\(shown.stdout)")
        // Every TAP line starts where the progress was erased, and the plan ends the output.
        #expect(shown.stdout.contains("\r\u{1B}[Kok 6 - expect s items==20000 (f3.trellis:5)\r\n"), "\(shown.stdout)")
        #expect(shown.stdout.hasSuffix("\r\u{1B}[K1..6\r\n"), "\(shown.stdout)")
    }
}
