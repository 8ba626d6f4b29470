import Foundation
import Testing

/// trellisd refuses option values outside their documented ranges before it listens, naming the
/// option and the range, and exits with a failure.
@Suite struct TrellisdOptionTests {
    @Test(arguments: [["--max-message-bytes", "1023"], ["--max-message-bytes", "1073741825"], ["--max-message-bytes", "9223372036854775807"]])
    func messageLimitOutsideItsRangeIsRefused(_ arguments: [String]) throws {
        let scratch = ScratchDirectory(prefix: "trellisd-options")
        let process = Process()
        process.executableURL = ServerProcess.executable
        process.arguments = ["--socket", scratch.path + "/s.sock", "--no-persistence"] + arguments
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus != 0)
        #expect(text.contains("--max-message-bytes must be between 1024 and 1073741824 bytes (1 GiB)"))
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/s.sock"))
    }
}
