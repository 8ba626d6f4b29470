import Foundation

/// A program run to its end on a thread of its own (not the cooperative pool the tests share,
/// which the server under test may need): its exit status and what it wrote.
enum ProgramRun {
    struct Finished: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `command` (an executable's path, then its arguments) in `/`, which any user may
    /// enter, with `environment` added to this process's. Killed after `seconds`: a trellis-web
    /// expected to refuse its options would otherwise, if it wrongly started, listen for ever.
    static func run(_ command: [String], environment: [String: String] = [:], seconds: Double = 30) async throws -> Finished {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result {
                    let process = Process()
                    process.executableURL = URL(fileURLWithPath: command[0])
                    process.arguments = Array(command.dropFirst())
                    process.currentDirectoryURL = URL(fileURLWithPath: "/")
                    if !environment.isEmpty {
                        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
                    }
                    let output = Pipe(), errors = Pipe()
                    process.standardOutput = output
                    process.standardError = errors
                    process.standardInput = FileHandle.nullDevice
                    try process.run()
                    // Each pipe on a thread of its own, so neither can fill while this one waits.
                    let outputText = Recorded(Data()), errorText = Recorded(Data())
                    let read = DispatchGroup()
                    for (pipe, text) in [(output, outputText), (errors, errorText)] {
                        read.enter()
                        Thread {
                            text.update { $0 = pipe.fileHandleForReading.readDataToEndOfFile() }
                            read.leave()
                        }.start()
                    }
                    let deadline = Date().addingTimeInterval(seconds)
                    while process.isRunning && Date() < deadline { usleep(10_000) }
                    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                    process.waitUntilExit()
                    read.wait()
                    return Finished(status: process.terminationStatus, stdout: String(decoding: outputText.current, as: UTF8.self),
                                    stderr: String(decoding: errorText.current, as: UTF8.self))
                })
            }.start()
        }
    }
}
