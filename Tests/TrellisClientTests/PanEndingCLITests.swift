import Foundation
import Testing
import TrellisClient
import TrellisCore
import TrellisTestSupport
import TrellisProtocol

/// Issue 24, item 7: a pan `trellis drag` began is always finished, whatever stops it halfway
/// (a refused sample, a server that stalls or restarts, SIGINT or SIGTERM). The real
/// executable against a real trellisd on a live clock, so the drag is still under way when
/// the test interferes; `session.info` then shows no drag and no finger down.
@Suite struct PanEndingCLITests {
    static func scroll(_ socket: String, _ session: String) -> JSONValue? {
        (try? RPCClient(path: socket, timeout: 5).call("session.info", ["session": .string(session)]))?["scroll"]
    }

    static func isDragging(_ socket: String, _ session: String) -> Bool { scroll(socket, session)?["dragging"] == .bool(true) }

    /// A live session of 1,000 cells on `socket`, and a ten-second drag down it in the background,
    /// returned once the server reports the drag.
    static func dragging(on socket: String, extra: [String] = []) throws -> BackgroundTrellis {
        #expect(runTrellis(["--socket", socket, "new", "l", "--bounds", "375x667", "--item-size", "100x100"]).status == 0)
        #expect(runTrellis(["--socket", socket, "reload", "l", "--items", "1000"]).status == 0)
        let drag = try BackgroundTrellis(["--socket", socket] + extra + ["drag", "l", "--by", "0,-600", "--over", "10s"])
        #expect(waitUntil(seconds: 10) { isDragging(socket, "l") }, "the drag never began")
        return drag
    }

    static func expectNoFingerDown(_ socket: String, _ comment: Comment) {
        let state = scroll(socket, "l")
        #expect(state?["dragging"] == .bool(false) && state?["tracking"] == .bool(false), comment)
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalMidDragCancelsThePanThenExits128PlusIt(signal: Int32) throws {
        let server = try CLIServer()
        defer { server.stop() }
        let drag = try Self.dragging(on: server.socketPath)
        let sent = Date()
        kill(drag.pid, signal)
        let r = drag.wait()
        #expect(r.reason == .exit && r.status == 128 + signal, "\(r.reason) \(r.status): \(r.stderr)")
        #expect(Date().timeIntervalSince(sent) < 5, "it stopped at the signal, not at the drag's end")
        #expect(r.stderr == "trellis: interrupted by \(signal == SIGINT ? "SIGINT" : "SIGTERM")\ntrellis: the pan was cancelled\n")
        Self.expectNoFingerDown(server.socketPath, "after \(signal)")
    }

    @Test func aSampleRefusedMidDragLeavesNoDragBehind() throws {
        // Another client starts an interactive transition mid-drag: the server refuses pans
        // until it lands, the next sample included, so the drag could never end; the
        // transition's start ends it.
        let server = try CLIServer()
        defer { server.stop() }
        let drag = try Self.dragging(on: server.socketPath)
        // Far enough down that the circle layout puts the offset elsewhere: the transition then
        // animates it, and pans are refused while it does.
        #expect(waitUntil(seconds: 15) { (Self.scroll(server.socketPath, "l")?["contentOffset"]?.arrayValue?[1].numberValue ?? 0) > 200 })
        _ = try server.client().call("layout.transition.begin", ["session": .string("l"), "layout": .object(["type": .string("circle")])])
        let r = drag.wait()
        #expect(r.status == 65 && r.stderr.contains("transition"), "\(r.status): \(r.stderr)")
        Self.expectNoFingerDown(server.socketPath, "after a refused sample")
    }

    @Test func aServerThatStallsPastTheTimeoutGetsTheCancelOnceItAnswers() throws {
        // The server stops answering for 3 s (SIGSTOP): the pending sample times out after
        // 2 s (exit 69), and the cancel sent on the same connection is served when it resumes.
        let server = try RestartableTrellisd()
        defer { server.stop() }
        let drag = try Self.dragging(on: server.socketPath, extra: ["--timeout", "2"])
        kill(server.pid, SIGSTOP)
        usleep(3_000_000)
        kill(server.pid, SIGCONT)
        let r = drag.wait()
        #expect(r.status == 69 && r.stderr.contains("no reply to gesture.pan within 2 s"), "\(r.status): \(r.stderr)")
        #expect(r.stderr.hasSuffix("trellis: the pan was cancelled\n"), "\(r.stderr)")
        Self.expectNoFingerDown(server.socketPath, "after the stall")
    }

    @Test func aServerKilledMidDragAndRestartedGetsTheCancelOnANewConnection() throws {
        // trellisd journals the began, so a restarted server restores the session mid-pan:
        // without a cancel from the client it would stay dragging for good.
        let server = try RestartableTrellisd()
        defer { server.stop() }
        let drag = try Self.dragging(on: server.socketPath)
        server.kill9()
        try server.start()
        let r = drag.wait()
        #expect(r.status == 69 && r.stderr.contains("connection to \(server.socketPath) lost"), "\(r.status): \(r.stderr)")
        #expect(r.stderr.hasSuffix("trellis: reconnected and cancelled the pan\n"), "\(r.stderr)")
        Self.expectNoFingerDown(server.socketPath, "after the restart")
    }
}

/// Polls `condition` every 20 ms for up to `seconds`; whether it became true.
func waitUntil(seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(20_000)
    }
    return condition()
}

/// `trellis …` running while the test does something else; `wait()` collects what it printed.
final class BackgroundTrellis {
    private let process = Process()
    private let out = Pipe(), err = Pipe()

    init(_ arguments: [String]) throws {
        process.executableURL = builtExecutable("trellis")
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["TRELLIS_SOCKET"] = nil
        process.environment = env
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    var pid: Int32 { process.processIdentifier }

    struct Result {
        var status: Int32
        var reason: Process.TerminationReason
        var stdout: String
        var stderr: String
    }

    /// Waits up to 30 s for it to exit (then kills it: a hung CLI fails its test, not the run).
    func wait() -> Result {
        if !waitUntil(seconds: 30, { !process.isRunning }) { kill(pid, SIGKILL) }
        process.waitUntilExit()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        return Result(status: process.terminationStatus, reason: process.terminationReason,
                      stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }
}

/// A trellisd that journals to a state directory of its own and can be frozen, killed and
/// started again on the same socket: the server a client sees stall, vanish and come back.
final class RestartableTrellisd {
    let directory = TrellisdProcess.temporaryDirectory()
    var socketPath: String { directory + "/run/s.sock" }
    private var process: Process?

    init() throws { try start() }

    var pid: Int32 { process?.processIdentifier ?? 0 }

    /// Starts it (again) and returns once it answers, its sessions restored.
    func start() throws {
        let p = Process()
        p.executableURL = builtExecutable("trellisd")
        p.arguments = ["--socket", socketPath, "--state-dir", directory + "/state"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        process = p
        let ready = waitUntil(seconds: 10) { (try? RPCClient(path: socketPath, timeout: 2).call("hello")) != nil }
        if !ready { throw ClientError.launch("trellisd did not start on \(socketPath)") }
    }

    /// SIGKILL: no goodbye, no final snapshot; the journal is all a restart has.
    func kill9() {
        guard let process else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    func stop() {
        if let process, process.isRunning {
            kill(process.processIdentifier, SIGCONT)
            process.terminate()
            if !waitUntil(seconds: 5, { !process.isRunning }) { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    deinit { stop() }
}
