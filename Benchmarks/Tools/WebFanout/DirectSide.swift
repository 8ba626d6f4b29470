import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// trellisd without the bridge, on a thread of its own: the controller that creates the
/// session and keeps every view animating (as `rpc-load fanout` does: a flow layout of 40×40
/// items in 2000×2000, switched between flow and circle, animated for 1 s, every second), and
/// the reference viewer attached straight to the socket, whose arrival times the WebSocket
/// clients are measured against. A plain thread blocked in poll(2), not a task: it must wake
/// the moment a frame arrives, whatever the WebSocket clients keep the task pool doing.
final class DirectSide: Sendable {
    /// What the thread reports back.
    struct Report: Sendable {
        var arrivals: [FrameArrival] = []
        var layoutChanges = 0
        /// trellisd's `stats {session}` reply, asked for while every viewer is still attached.
        var statsReply = ""
        var keyframeBytes = 0
        /// Whether the thread runs at a real-time priority (see `start`).
        var realTime = false
        var failure: String?
    }

    private struct State {
        var ready = false
        var stop = false
        var finished = false
        var report = Report()
    }

    let socketPath: String
    let session: String
    let items: Int
    private let state = Mutex(State())

    init(socketPath: String, session: String, items: Int) {
        self.socketPath = socketPath
        self.session = session
        self.items = items
    }

    /// Starts the thread; it runs until `stop()`. The thread asks for SCHED_FIFO (granted to
    /// root or CAP_SYS_NICE) so that it takes the CPU the moment a frame arrives: a reference
    /// stamped late would make the bridge look faster than it is. It does a memchr per read, so
    /// it cannot starve the processes it shares a CPU with.
    func start() {
        let thread = Thread { [self] in
            var priority = sched_param(sched_priority: 1)
            let realTime = pthread_setschedparam(pthread_self(), SCHED_FIFO, &priority) == 0
            state.withLock { $0.report.realTime = realTime }
            do throws(BenchFailure) {
                try run()
            } catch {
                state.withLock { $0.report.failure = error.description }
            }
            state.withLock { $0.finished = true }
        }
        thread.name = "direct"
        thread.start()
    }

    /// Waits until the session exists and the reference viewer has its keyframe.
    func waitUntilReady(timeout: Double = 30) async throws {
        let deadline = monotonicSeconds() + timeout
        while true {
            let (ready, failure) = state.withLock { ($0.ready, $0.report.failure) }
            if let failure { throw BenchFailure(failure) }
            if ready { return }
            guard monotonicSeconds() < deadline else { throw BenchFailure("the session was not ready within \(Int(timeout)) s") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Asks the thread to stop (after it has asked trellisd for its stats) and waits for what it saw.
    func stop() async throws -> Report {
        state.withLock { $0.stop = true }
        while true {
            let (finished, report) = state.withLock { ($0.finished, $0.report) }
            if finished {
                if let failure = report.failure { throw BenchFailure(failure) }
                return report
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    private func run() throws(BenchFailure) {
        let flow = #"{"type":"flow","itemSize":[40,40]}"#
        let circle = #"{"type":"circle","itemSize":[40,40]}"#
        let control = try UnixSocket(path: socketPath)
        var id = 1
        let itemList = (0..<items).map { #"{"id":"i\#($0)"}"# }.joined(separator: ",")
        _ = try control.call(id: id, method: "session.create", params:
            #"{"name":"\#(session)","bounds":[2000,2000],"clock":"live","layout":\#(flow),"sections":[{"id":"s","items":[\#(itemList)]}]}"#)
        id += 1

        let reference = try UnixSocket(path: socketPath)
        let reply = try reference.call(id: 1, method: "session.attach", params: #"{"session":"\#(session)","readOnly":true}"#)
        var arrivals: [FrameArrival] = []
        arrivals.reserveCapacity(4096)
        var lines = LineHeads()
        let record = { (head: UnsafeRawBufferPointer, length: Int, time: Double) in
            if let seq = FrameSeq.parse(head) { arrivals.append(FrameArrival(seq: seq, time: time, bytes: length)) }
        }
        let early = reference.takePending()
        let attachedAt = monotonicSeconds()
        early.withUnsafeBytes { raw in lines.feed(raw) { record($0, $1, attachedAt) } }
        reference.setNonBlocking()
        control.setNonBlocking()
        state.withLock {
            $0.ready = true
            $0.report.keyframeBytes = reply.utf8.count
        }

        let capacity = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        defer { buffer.deallocate() }
        var fds = [pollfd(fd: reference.fd, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: control.fd, events: Int16(POLLIN), revents: 0)]
        var nextChange = monotonicSeconds()
        var changes = 0
        while !state.withLock({ $0.stop }) {
            let now = monotonicSeconds()
            if now >= nextChange {
                let layout = changes % 2 == 0 ? circle : flow
                try control.write(#"{"jsonrpc":"2.0","id":\#(id),"method":"layout.set","params":{"session":"\#(session)","layout":\#(layout),"animated":true,"duration":1}}"# + "\n")
                id += 1
                changes += 1
                nextChange += 1
            }
            // Wake at least every 50 ms to see a stop request.
            let timeout = Int32((min(nextChange - monotonicSeconds(), 0.05) * 1000).rounded(.up))
            guard poll(&fds, 2, max(timeout, 0)) > 0 else { continue }
            let at = monotonicSeconds()
            if fds[0].revents != 0 {
                let n = read(reference.fd, buffer, capacity)
                if n == 0 { throw BenchFailure("trellisd closed the reference viewer (too slow?)") }
                if n > 0 { lines.feed(UnsafeRawBufferPointer(start: buffer, count: n)) { record($0, $1, at) } }
            }
            if fds[1].revents != 0 {
                let n = read(control.fd, buffer, capacity)
                if n == 0 { throw BenchFailure("trellisd closed the controller") }
                if n > 0, String(decoding: UnsafeRawBufferPointer(start: buffer, count: n), as: UTF8.self).contains(#""error":"#) {
                    throw BenchFailure("layout.set failed: \(String(decoding: UnsafeRawBufferPointer(start: buffer, count: min(n, 500)), as: UTF8.self))")
                }
            }
        }
        let stats = try control.call(id: id, method: "stats", params: #"{"session":"\#(session)"}"#)
        state.withLock {
            $0.report.arrivals = arrivals
            $0.report.layoutChanges = changes
            $0.report.statsReply = stats
        }
    }
}
