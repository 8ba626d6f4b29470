// web-fanout: the client behind `tools/bench web` (issue 17's `web.fanout` benchmark).
//
//   web-fanout --socket PATH --port PORT [--session NAME] [--clients 16] [--items 1000]
//              [--seconds 10] [--warmup 1] [--keyframe-timeout 3] [--web-pid PID] [--server-pid PID]
//              [--dump FILE]
//
// Creates a live session of N items on trellisd (PATH) that animates all the time (DirectSide,
// as `rpc-load fanout` does), attaches one reference viewer straight to trellisd's socket and
// C WebSocket clients to trellis-web (ws://127.0.0.1:PORT/ws?session=NAME), which bridges each
// to an attach of its own. Every frame's arrival is stamped on CLOCK_MONOTONIC on both sides;
// the bridge's added latency of a frame at a client is its WebSocket arrival less the reference
// viewer's arrival of the same seq (AddedLatency). The window opens `warmup` seconds after every
// client holds its keyframe and lasts `seconds`; CPU use of trellis-web (--web-pid), trellisd
// (--server-pid) and this client is read from /proc over the same window. Prints one line:
//   WEBFANOUT clients=… items=… frames=… samples=… added_p50_ms=… added_p99_ms=… added_max_ms=… …
// --dump writes every arrival (`client seq time bytes`, client -1 being the reference viewer,
// time in monotonic seconds, window first as `window START END`) for a closer look.
// The figures include this client's own WebSocket work (decoding, the hop from NIO's thread to
// the task), so they bound the bridge's delay from above.

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The entry point: runs one measurement and prints its line.
@main
struct WebFanout {
    static func main() async {
        signal(SIGPIPE, SIG_IGN)
        do {
            try await run(Options(Array(CommandLine.arguments.dropFirst())))
        } catch {
            FileHandle.standardError.write(Data("web-fanout: \(error)\n".utf8))
            exit(1)
        }
    }

    static func run(_ options: Options) async throws {
        let socket = try options.string("socket")
        let port = try options.int("port", 0)
        let session = try options.string("session", "webfanout")
        let clients = try options.int("clients", 16)
        let items = try options.int("items", 1000)
        let seconds = try options.double("seconds", 10)
        let warmup = try options.double("warmup", 1)
        let keyframeTimeout = try options.double("keyframe-timeout", 3)
        let webPID = try options.pid("web-pid"), serverPID = try options.pid("server-pid")
        guard port > 0 else { throw BenchFailure("--port PORT (trellis-web's) is required") }

        let direct = DirectSide(socketPath: socket, session: session, items: items)
        direct.start()
        try await direct.waitUntilReady()

        let attached = Attached()
        let viewer = WebSocketViewer(url: "ws://127.0.0.1:\(port)/ws?session=\(session)",
                                     keyframeTimeout: keyframeTimeout, attached: attached)
        var window = 0.0...0.0
        var cpu: (web: Double?, server: Double?, own: Double, machine: Double?, steal: Double?) = (nil, nil, 0, nil, nil)
        var report = DirectSide.Report()
        let records = try await withThrowingTaskGroup(of: WebSocketViewer.Record.self) { group in
            for _ in 0..<clients { group.addTask { await viewer.run() } }
            let setupDeadline = monotonicSeconds() + 60
            while attached.current < clients {
                if let failure = attached.failure { throw BenchFailure("a WebSocket client gave up: \(failure)") }
                guard monotonicSeconds() < setupDeadline else {
                    throw BenchFailure("only \(attached.current) of \(clients) WebSocket clients had a keyframe after 60 s")
                }
                try await Task.sleep(for: .milliseconds(10))
            }
            try await sleep(until: monotonicSeconds() + warmup)
            let start = monotonicSeconds()
            let before = (web: webPID.flatMap(ProcessCPU.seconds), server: serverPID.flatMap(ProcessCPU.seconds),
                          own: ProcessCPU.ownSeconds(), machine: ProcessCPU.machine())
            try await sleep(until: start + seconds)
            let end = monotonicSeconds()
            let after = (web: webPID.flatMap(ProcessCPU.seconds), server: serverPID.flatMap(ProcessCPU.seconds),
                         own: ProcessCPU.ownSeconds(), machine: ProcessCPU.machine())
            window = start...end
            cpu = (after.web.flatMap { a in before.web.map { a - $0 } },
                   after.server.flatMap { a in before.server.map { a - $0 } },
                   after.own - before.own,
                   after.machine.flatMap { a in before.machine.map { a.busy - $0.busy } },
                   after.machine.flatMap { a in before.machine.map { a.steal - $0.steal } })
            // trellisd's counters while every client is still attached.
            report = try await direct.stop()
            // Frames of the window still on their way through the bridge get a second to arrive.
            try await sleep(until: end + 1)
            group.cancelAll()
            var records: [WebSocketViewer.Record] = []
            for try await record in group { records.append(record) }
            return records
        }
        if let failure = records.compactMap(\.failure).first { throw BenchFailure("a WebSocket client failed: \(failure)") }

        if let path = try? options.string("dump") {
            var text = "window \(window.lowerBound) \(window.upperBound)\n"
            for (index, arrivals) in ([report.arrivals] + records.map(\.arrivals)).enumerated() {
                for a in arrivals { text += "\(index - 1) \(a.seq) \(a.time) \(a.bytes)\n" }
            }
            try text.write(toFile: path, atomically: false, encoding: .utf8)
        }
        let latency = AddedLatency(reference: report.arrivals, clients: records.map(\.arrivals), window: window)
        let elapsed = window.upperBound - window.lowerBound
        let stats = (try? JSONSerialization.jsonObject(with: Data(report.statsReply.utf8))) as? [String: Any]
        let viewers = (stats?["result"] as? [String: Any])?["viewers"] as? [[String: Any]] ?? []
        let serverSkipped = viewers.reduce(0) { $0 + (($1["framesSkipped"] as? Double).map { Int($0) } ?? 0) }

        func ms(_ value: Double) -> String { String(format: "%.2f", value) }
        func pct(_ seconds: Double?) -> String { seconds.map { String(format: "%.1f", $0 / elapsed * 100) } ?? "nan" }
        var line = "WEBFANOUT clients=\(clients) items=\(items) seconds=\(String(format: "%.3f", elapsed))"
        line += " frames=\(latency.frames) samples=\(latency.samples.count)"
        line += " added_p50_ms=\(ms(latency.percentileMs(50))) added_p90_ms=\(ms(latency.percentileMs(90)))"
        line += " added_p99_ms=\(ms(latency.percentileMs(99))) added_max_ms=\(ms(latency.percentileMs(100)))"
        line += " added_min_ms=\(ms(latency.percentileMs(0)))"
        line += " skipped=\(latency.skipped) undelivered=\(latency.undelivered) unmatched=\(latency.unmatched)"
        line += " reference_skipped=\(latency.referenceSkipped) server_skipped=\(serverSkipped) viewers_at_end=\(viewers.count)"
        line += " reconnects=\(records.reduce(0) { $0 + $1.reconnects }) reference_rt=\(report.realTime ? 1 : 0)"
        line += " frame_bytes_avg=\(latency.frameBytes) keyframe_bytes=\(report.keyframeBytes) layout_changes=\(report.layoutChanges)"
        line += " bridge_cpu_pct=\(pct(cpu.web)) trellisd_cpu_pct=\(pct(cpu.server)) client_cpu_pct=\(pct(cpu.own))"
        // Everything else the machine ran meanwhile (percent of one CPU), and the hypervisor's steal.
        let others = cpu.machine.map { $0 - (cpu.web ?? 0) - (cpu.server ?? 0) - cpu.own }
        line += " others_cpu_pct=\(pct(others.map { max($0, 0) })) steal_pct=\(pct(cpu.steal))"
        print(line)
        fflush(nil)
    }

    /// Sleeps until `deadline` on the monotonic clock.
    static func sleep(until deadline: Double) async throws {
        let left = deadline - monotonicSeconds()
        if left > 0 { try await Task.sleep(for: .milliseconds(Int((left * 1000).rounded(.up)))) }
    }
}
