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
    /// enter, with `environment` added to this process's.
    static func run(_ command: [String], environment: [String: String] = [:]) async throws -> Finished {
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
                    // Standard error on its own thread, so neither pipe can fill while the other is read.
                    let errorText = Recorded(Data())
                    let errorsRead = DispatchSemaphore(value: 0)
                    Thread {
                        errorText.update { $0 = errors.fileHandleForReading.readDataToEndOfFile() }
                        errorsRead.signal()
                    }.start()
                    let data = output.fileHandleForReading.readDataToEndOfFile()
                    process.waitUntilExit()
                    errorsRead.wait()
                    return Finished(status: process.terminationStatus, stdout: String(decoding: data, as: UTF8.self),
                                    stderr: String(decoding: errorText.current, as: UTF8.self))
                })
            }.start()
        }
    }
}
