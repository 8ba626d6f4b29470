// rpc-load: the load client behind `tools/bench rpc` and `tools/bench fanout`.
//
//   rpc-load rpc    --socket PATH --protocol trellis|redis [--connections N] [--pipeline P]
//                   [--warmup S] [--seconds S] [--server-pid PID] [--scroll SESSION]
//   rpc-load fanout --socket PATH [--viewers V] [--items N] [--seconds S] [--server-pid PID]
//
// One thread and one poll(2) set for every connection (non-blocking sockets):
// on a 2-core machine the server gets one core and this client the other, and a single
// thread does not spend that core switching between 16 or 64 threads. Each read takes
// everything the socket holds (up to 256 KB) and each burst of replies is answered with one
// write of as many new requests, so a connection costs about one poll, one read and one
// write per burst. The client reports its own CPU use so a saturated client shows.
//
// `rpc` keeps P requests in flight on each of N connections, counts reply lines for a fixed
// time after a warm-up and prints the round trips per second. `trellis` sends
// {"jsonrpc":"2.0","id":<n>,"method":"hello"} lines; `redis` sends the inline command PING
// and counts +PONG replies (every reply is one line either way; the first reply on each
// connection is checked in full before the clock starts). `--scroll SESSION` sends
// `scroll.to {session, offset:[0, id % 512]}` instead of `hello`: a change the server accepts,
// journals and (when the session is recorded) records, so `tools/bench rpc` can compare a
// session with and without a flight recording (the caller makes the session scrollable).
//
// `fanout` creates a live session with N items in a 2000×2000 flow layout of 40×40 items,
// attaches V read-only viewers that read everything as fast as they can, and switches the
// layout between flow and circle (animated, 1 s) every second for S seconds, so every view
// is always animating; it prints frames and bytes received, the interval between consecutive
// frames at the first viewer (and over all viewers), and the server's CPU use from
// /proc/<pid>/stat. The server's own counters (frames published, frames skipped per viewer)
// come from `stats {session}` at the end, its tick times (wall clock and on its CPU) from
// `stats {}`, and the hypervisor's steal on the server's CPU from /proc/stat.
//
// Bounded: every mode stops by itself; only Unix sockets (loopback) are used. The hand-rolled
// byte handling keeps JSON libraries off the measured path; Foundation parses only the final
// `stats` reply.

import Foundation
#if canImport(Glibc)
import Glibc
#endif

// MARK: Small utilities

func fail(_ message: String) -> Never {
    let bytes = Array("rpc-load: \(message)\n".utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(1)
}

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// This process's CPU seconds (user + system).
func selfCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
}

/// Field `n` (1-based, as proc(5) numbers them) of /proc/<pid>/stat, from field 3 on.
func processStatField(_ pid: Int32, _ n: Int) -> Substring? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
          // The command name (field 2) is in parentheses and may hold spaces: split after the last ')'.
          let close = text.lastIndex(of: ")") else { return nil }
    let fields = text[text.index(after: close)...].split(separator: " ")
    // fields[0] is field 3 (state).
    return n >= 3 && n - 3 < fields.count ? fields[n - 3] : nil
}

/// Another process's CPU seconds (utime + stime, fields 14 and 15 of /proc/<pid>/stat).
func processCPUSeconds(_ pid: Int32) -> Double? {
    guard let utime = processStatField(pid, 14).flatMap({ Double($0) }),
          let stime = processStatField(pid, 15).flatMap({ Double($0) }) else { return nil }
    return (utime + stime) / Double(sysconf(Int32(_SC_CLK_TCK)))
}

/// The CPU a process last ran on (field 39 of /proc/<pid>/stat).
func processCPU(_ pid: Int32) -> Int? { processStatField(pid, 39).flatMap { Int($0) } }

/// Steal and total jiffies of one CPU (or of all, for nil) from /proc/stat: steal is time a
/// hypervisor ran something else while this virtual CPU had work.
func cpuJiffies(_ cpu: Int?) -> (steal: Double, total: Double)? {
    guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8) else { return nil }
    let name = cpu.map { "cpu\($0)" } ?? "cpu"
    guard let line = text.split(separator: "\n").first(where: { $0.split(separator: " ").first.map(String.init) == name })
    else { return nil }
    let values = line.split(separator: " ").dropFirst().compactMap { Double($0) }
    // user nice system idle iowait irq softirq steal guest guest_nice; guests are inside user.
    guard values.count >= 8 else { return nil }
    return (values[7], values.prefix(8).reduce(0, +))
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    let rank = Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
}

func format(_ value: Double, _ decimals: Int) -> String {
    String(format: "%.\(decimals)f", value)
}

// MARK: Sockets

func connectUnix(_ path: String) -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { fail("socket: \(String(cString: strerror(errno)))") }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    let capacity = MemoryLayout.size(ofValue: address.sun_path)
    guard bytes.count < capacity else { fail("socket path too long: \(path)") }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        raw.copyBytes(from: bytes)
        raw[bytes.count] = 0
    }
    let status = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
        }
    }
    guard status == 0 else { fail("connect \(path): \(String(cString: strerror(errno)))") }
    return fd
}

func setNonBlocking(_ fd: Int32) {
    let flags = fcntl(fd, F_GETFL)
    _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
}

/// Writes everything, blocking (set-up traffic only).
func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
        if n < 0 {
            if errno == EINTR { continue }
            if errno == EAGAIN { var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0); _ = poll(&p, 1, 1000); continue }
            fail("write: \(String(cString: strerror(errno)))")
        }
        offset += n
    }
}

/// Reads one line (without its newline) from a blocking or non-blocking socket, keeping what
/// follows it in `pending` (set-up traffic only).
func readLine(_ fd: Int32, pending: inout [UInt8], timeout: Double = 30) -> [UInt8] {
    let deadline = now() + timeout
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        if let newline = pending.firstIndex(of: 10) {
            let line = Array(pending[..<newline])
            pending.removeSubrange(...newline)
            return line
        }
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let left = deadline - now()
        guard left > 0 else { fail("no reply within \(Int(timeout)) s") }
        guard poll(&p, 1, Int32(min(left, 1) * 1000)) >= 0 || errno == EINTR else { fail("poll: \(String(cString: strerror(errno)))") }
        guard p.revents != 0 else { continue }
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n == 0 { fail("the server closed the connection") }
        if n < 0 {
            if errno == EINTR || errno == EAGAIN { continue }
            fail("read: \(String(cString: strerror(errno)))")
        }
        pending.append(contentsOf: chunk[0..<n])
    }
}

/// Sends one JSON-RPC request and waits for the reply with its id (lines that are not the
/// reply, such as notifications, are skipped). Fails on an error reply.
func call(_ fd: Int32, pending: inout [UInt8], id: Int, method: String, params: String) -> String {
    writeAll(fd, Array("{\"jsonrpc\":\"2.0\",\"id\":\(id),\"method\":\"\(method)\",\"params\":\(params)}\n".utf8))
    let idField = Array("\"id\":\(id),".utf8)
    while true {
        let line = readLine(fd, pending: &pending)
        guard contains(line, idField) else { continue }
        let text = String(decoding: line, as: UTF8.self)
        if contains(line, Array("\"error\":".utf8)) { fail("\(method) failed: \(text.prefix(500))") }
        return text
    }
}

func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard needle.count <= haystack.count else { return false }
    guard let first = needle.first else { return true }
    var i = 0
    while let start = haystack[i...].firstIndex(of: first), start + needle.count <= haystack.count {
        if haystack[start..<start + needle.count].elementsEqual(needle) { return true }
        i = start + 1
    }
    return false
}

/// poll(2) over every connection (Glibc does not export epoll; at 16–65 descriptors a scan of
/// the pollfd array costs nothing next to the reads and writes).
final class Poller {
    var fds: [pollfd] = []

    /// Adds a socket; its token is its index.
    func add(_ socket: Int32) -> Int {
        fds.append(pollfd(fd: socket, events: Int16(POLLIN), revents: 0))
        return fds.count - 1
    }

    func setWritable(_ token: Int, _ writable: Bool) {
        fds[token].events = Int16(POLLIN) | (writable ? Int16(POLLOUT) : 0)
    }

    /// Waits up to `timeout` seconds; then `fds[i].revents` says what is ready.
    func wait(_ timeout: Double) -> Int {
        let ms = Int32((max(0, min(timeout, 1)) * 1000).rounded(.up))
        let n = fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), ms) }
        if n < 0 {
            if errno == EINTR { return 0 }
            fail("poll: \(String(cString: strerror(errno)))")
        }
        return Int(n)
    }
}

/// Counts newlines in a buffer (memchr).
@inline(__always)
func countNewlines(_ base: UnsafeRawPointer, _ count: Int) -> Int {
    var n = 0
    var p = base
    var left = count
    while left > 0, let hit = memchr(p, 10, left) {
        n += 1
        let next = UnsafeRawPointer(hit) + 1
        left -= next - p
        p = next
    }
    return n
}

// MARK: Options

struct Options {
    var values: [String: String] = [:]
    let mode: String

    init(_ arguments: [String]) {
        guard let mode = arguments.first, mode == "rpc" || mode == "fanout" else {
            fail("usage: rpc-load rpc|fanout --socket PATH [options] (see the header of RPCLoad.swift)")
        }
        self.mode = mode
        var i = 1
        while i < arguments.count {
            let key = arguments[i]
            guard key.hasPrefix("--"), i + 1 < arguments.count else { fail("expected --option value, found \(key)") }
            values[String(key.dropFirst(2))] = arguments[i + 1]
            i += 2
        }
    }

    func string(_ key: String, _ fallback: String? = nil) -> String {
        guard let value = values[key] ?? fallback else { fail("--\(key) is required") }
        return value
    }
    func int(_ key: String, _ fallback: Int) -> Int {
        guard let text = values[key] else { return fallback }
        guard let value = Int(text), value > 0 else { fail("--\(key): expected a positive whole number, found \(text)") }
        return value
    }
    func double(_ key: String, _ fallback: Double) -> Double {
        guard let text = values[key] else { return fallback }
        guard let value = Double(text), value >= 0, value <= 120 else { fail("--\(key): expected 0…120, found \(text)") }
        return value
    }
    var serverPID: Int32? { values["server-pid"].flatMap { Int32($0) } }
}

// MARK: rpc

final class LoadConnection {
    let fd: Int32
    var nextID = 1
    var inFlight = 0
    var output: [UInt8] = []
    var outputOffset = 0
    var wantsWrite = false
    init(fd: Int32) { self.fd = fd }
}

enum RPCLoad {
    static func run(_ options: Options) {
        let path = options.string("socket")
        let proto = options.string("protocol", "trellis")
        guard proto == "trellis" || proto == "redis" else { fail("--protocol: expected trellis or redis") }
        let connections = options.int("connections", 1)
        let pipeline = options.int("pipeline", 1)
        let warmup = options.double("warmup", 0.5)
        let seconds = options.double("seconds", 3)
        guard seconds > 0 else { fail("--seconds must be positive") }

        let trellisPrefix = Array("{\"jsonrpc\":\"2.0\",\"id\":".utf8)
        let trellisSuffix = Array(",\"method\":\"hello\"}\n".utf8)
        let scrolled = options.values["scroll"]
        // The session's name goes in as JSON: the caller passes a plain name.
        let scrollPrefix = Array(",\"method\":\"scroll.to\",\"params\":{\"session\":\"\(scrolled ?? "")\",\"offset\":[0,".utf8)
        let scrollSuffix = Array("]}}\n".utf8)
        let ping = Array("PING\r\n".utf8)
        func appendRequest(_ c: LoadConnection) {
            if proto == "redis" {
                c.output.append(contentsOf: ping)
            } else {
                c.output.append(contentsOf: trellisPrefix)
                appendDecimal(c.nextID, to: &c.output)
                if scrolled != nil {
                    c.output.append(contentsOf: scrollPrefix)
                    appendDecimal(c.nextID % 512, to: &c.output)
                    c.output.append(contentsOf: scrollSuffix)
                } else {
                    c.output.append(contentsOf: trellisSuffix)
                }
            }
            c.nextID += 1
            c.inFlight += 1
        }

        // Connect, and check one full round trip on each connection before the clock starts.
        var all: [LoadConnection] = []
        for _ in 0..<connections {
            let c = LoadConnection(fd: connectUnix(path))
            appendRequest(c)
            writeAll(c.fd, c.output)
            c.output.removeAll(keepingCapacity: true)
            c.inFlight = 0
            var pending: [UInt8] = []
            let line = readLine(c.fd, pending: &pending, timeout: 10)
            let text = String(decoding: line, as: UTF8.self)
            if proto == "redis" {
                guard text == "+PONG\r" else { fail("unexpected reply to PING: \(text)") }
            } else {
                guard text.contains("\"result\":"), text.contains("\"id\":1") else { fail("unexpected reply to hello: \(text)") }
            }
            setNonBlocking(c.fd)
            all.append(c)
        }

        let poller = Poller()
        for c in all { _ = poller.add(c.fd) }

        func flush(_ c: LoadConnection, token: Int) {
            while c.outputOffset < c.output.count {
                let n = c.output.withUnsafeBytes { write(c.fd, $0.baseAddress! + c.outputOffset, $0.count - c.outputOffset) }
                if n < 0 {
                    if errno == EINTR { continue }
                    if errno == EAGAIN { break }
                    fail("write: \(String(cString: strerror(errno)))")
                }
                c.outputOffset += n
            }
            if c.outputOffset == c.output.count {
                c.output.removeAll(keepingCapacity: true)
                c.outputOffset = 0
            }
            let wants = !c.output.isEmpty
            if wants != c.wantsWrite {
                c.wantsWrite = wants
                poller.setWritable(token, wants)
            }
        }

        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 256 * 1024, alignment: 16)
        defer { buffer.deallocate() }
        var measuring = false
        var replies = 0
        var cpuStart = 0.0, serverCPUStart: Double? = nil

        let start = now()
        let measureAt = start + warmup
        let stopAt = measureAt + seconds
        for (token, c) in all.enumerated() {
            for _ in 0..<pipeline { appendRequest(c) }
            flush(c, token: token)
        }
        if warmup == 0 {
            measuring = true
            cpuStart = selfCPUSeconds()
            serverCPUStart = options.serverPID.flatMap(processCPUSeconds)
        }
        var measuredUntil = stopAt
        while true {
            let t = now()
            if !measuring && t >= measureAt {
                measuring = true
                replies = 0
                cpuStart = selfCPUSeconds()
                serverCPUStart = options.serverPID.flatMap(processCPUSeconds)
            }
            if t >= stopAt {
                measuredUntil = t
                break
            }
            guard poller.wait((measuring ? stopAt : measureAt) - t) > 0 else { continue }
            for token in 0..<all.count {
                let revents = poller.fds[token].revents
                guard revents != 0 else { continue }
                let c = all[token]
                if revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 && revents & Int16(POLLIN) == 0 {
                    fail("connection \(token) closed by the server")
                }
                if revents & Int16(POLLIN) != 0 {
                    let got = read(c.fd, buffer, 256 * 1024)
                    if got == 0 { fail("connection \(token) closed by the server") }
                    if got < 0 {
                        if errno == EINTR || errno == EAGAIN { continue }
                        fail("read: \(String(cString: strerror(errno)))")
                    }
                    let lines = countNewlines(buffer, got)
                    c.inFlight -= lines
                    if measuring { replies += lines }
                    for _ in 0..<lines { appendRequest(c) }
                }
                flush(c, token: token)
            }
        }
        let cpu = selfCPUSeconds() - cpuStart
        let serverCPU = serverCPUStart.flatMap { s in options.serverPID.flatMap(processCPUSeconds).map { $0 - s } }
        let elapsed = measuredUntil - measureAt
        for c in all { close(c.fd) }
        var line = "RPCLOAD protocol=\(proto)\(scrolled != nil ? " method=scroll.to" : "") connections=\(connections) pipeline=\(pipeline) seconds=\(format(elapsed, 3))"
        line += " replies=\(replies) rps=\(Int((Double(replies) / elapsed).rounded()))"
        line += " client_cpu_pct=\(format(cpu / elapsed * 100, 1))"
        if let serverCPU { line += " server_cpu_pct=\(format(serverCPU / elapsed * 100, 1))" }
        print(line)
        fflush(nil)
    }

    static func appendDecimal(_ value: Int, to output: inout [UInt8]) {
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var v = value
        var count = 0
        withUnsafeMutableBytes(of: &digits) { d in
            repeat {
                d[19 - count] = UInt8(48 + v % 10)
                v /= 10
                count += 1
            } while v > 0
            output.append(contentsOf: d[(20 - count)...])
        }
    }
}

// MARK: fanout

final class Viewer {
    let fd: Int32
    var bytes = 0
    var lines = 0
    var frames = 0
    /// The first bytes of the line being read (enough to tell a frame notification).
    var head: [UInt8] = []
    var headDone = false
    var lastFrameAt: Double?
    var intervals: [Double] = []
    init(fd: Int32) { self.fd = fd; head.reserveCapacity(64) }
}

enum Fanout {
    /// Frame notifications start with these bytes (the server writes jsonrpc, then method).
    static let framePrefix = Array("{\"jsonrpc\":\"2.0\",\"method\":\"frame\"".utf8)

    static func run(_ options: Options) {
        let path = options.string("socket")
        let viewerCount = options.int("viewers", 64)
        let items = options.int("items", 1000)
        let seconds = options.double("seconds", 10)
        let session = "fanout"
        let flow = "{\"type\":\"flow\",\"itemSize\":[40,40]}"
        let circle = "{\"type\":\"circle\",\"itemSize\":[40,40]}"

        // The controller: creates the session and drives the animations.
        let control = connectUnix(path)
        var controlPending: [UInt8] = []
        var id = 1
        var itemList = ""
        itemList.reserveCapacity(items * 12)
        for i in 0..<items { itemList += (i == 0 ? "" : ",") + "{\"id\":\"i\(i)\"}" }
        _ = call(control, pending: &controlPending, id: id, method: "session.create",
                 params: "{\"name\":\"\(session)\",\"bounds\":[2000,2000],\"clock\":\"live\",\"layout\":\(flow),\"sections\":[{\"id\":\"s\",\"items\":[\(itemList)]}]}")
        id += 1

        // The viewers: attach read-only; the reply carries the keyframe.
        var viewers: [Viewer] = []
        var keyframeBytes = 0
        for _ in 0..<viewerCount {
            let v = Viewer(fd: connectUnix(path))
            var pending: [UInt8] = []
            let reply = call(v.fd, pending: &pending, id: 1, method: "session.attach",
                             params: "{\"session\":\"\(session)\",\"readOnly\":true}")
            keyframeBytes = reply.utf8.count
            guard pending.isEmpty else { fail("unexpected bytes after the attach reply") }
            setNonBlocking(v.fd)
            viewers.append(v)
        }
        let info = call(control, pending: &controlPending, id: id, method: "stats", params: "{\"session\":\"\(session)\"}")
        id += 1
        let viewsOnScreen = jsonObject(info)["result"].flatMap { ($0 as? [String: Any])?["views"] as? Double }.map { Int($0) } ?? -1
        setNonBlocking(control)

        let poller = Poller()
        for v in viewers { _ = poller.add(v.fd) }
        let controlToken = poller.add(control)

        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 256 * 1024, alignment: 16)
        defer { buffer.deallocate() }
        let start = now()
        let stopAt = start + seconds
        let cpuStart = selfCPUSeconds()
        let serverCPUStart = options.serverPID.flatMap(processCPUSeconds)
        // Steal on the server's CPU (pinned by tools/bench; else where it is now).
        let serverCore = options.serverPID.flatMap(processCPU)
        let jiffiesStart = cpuJiffies(serverCore)
        var nextChange = start
        var changes = 0
        var controlReplies = 0
        var controlOutput: [UInt8] = []
        while true {
            let t = now()
            if t >= stopAt { break }
            if t >= nextChange {
                let layout = changes % 2 == 0 ? circle : flow
                controlOutput.append(contentsOf: Array("{\"jsonrpc\":\"2.0\",\"id\":\(id),\"method\":\"layout.set\",\"params\":{\"session\":\"\(session)\",\"layout\":\(layout),\"animated\":true,\"duration\":1}}\n".utf8))
                id += 1
                changes += 1
                nextChange = start + Double(changes)
                let n = controlOutput.withUnsafeBytes { write(control, $0.baseAddress, $0.count) }
                if n < 0 { fail("write to the controller: \(String(cString: strerror(errno)))") }
                controlOutput.removeFirst(n)
                guard controlOutput.isEmpty else { fail("the controller's request did not fit the socket buffer") }
            }
            guard poller.wait(min(nextChange, stopAt) - t) > 0 else { continue }
            let at = now()
            for token in 0..<poller.fds.count where poller.fds[token].revents != 0 {
                let fd = token == controlToken ? control : viewers[token].fd
                let got = read(fd, buffer, 256 * 1024)
                if got == 0 { fail(token == controlToken ? "the server closed the controller" : "the server closed viewer \(token) (too slow?)") }
                if got < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    fail("read: \(String(cString: strerror(errno)))")
                }
                if token == controlToken {
                    let raw = UnsafeRawBufferPointer(start: buffer, count: got)
                    if contains(Array(raw), Array("\"error\":".utf8)) { fail("layout.set failed: \(String(decoding: raw, as: UTF8.self).prefix(500))") }
                    controlReplies += countNewlines(buffer, got)
                } else {
                    consume(viewers[token], UnsafeRawBufferPointer(start: buffer, count: got), at: at)
                }
            }
        }
        let elapsed = now() - start
        let cpu = selfCPUSeconds() - cpuStart
        let serverCPU = serverCPUStart.flatMap { s in options.serverPID.flatMap(processCPUSeconds).map { $0 - s } }
        let jiffiesEnd = cpuJiffies(serverCore)

        // The server's own counters.
        var statsPending: [UInt8] = []
        let stats = jsonObject(call(control, pending: &statsPending, id: id, method: "stats", params: "{\"session\":\"\(session)\"}"))
        let result = stats["result"] as? [String: Any] ?? [:]
        let published = result["frames"] as? Double ?? -1
        let serverViewers = result["viewers"] as? [[String: Any]] ?? []
        let skipped = serverViewers.reduce(0.0) { $0 + ($1["framesSkipped"] as? Double ?? 0) }
        let sent = serverViewers.reduce(0.0) { $0 + ($1["framesSent"] as? Double ?? 0) }
        // The server's own frame time: how long each live tick took (advance, diff, encode, write to all viewers).
        let serverStats = jsonObject(call(control, pending: &statsPending, id: id + 1, method: "stats", params: "{}"))
        let frameTime = (serverStats["result"] as? [String: Any])?["frameTimeMs"] as? [String: Any] ?? [:]
        // The same ticks on-CPU: the gap to frameTime is waiting for the CPU (preemption, steal).
        let frameCPU = (serverStats["result"] as? [String: Any])?["frameCpuMs"] as? [String: Any] ?? [:]
        // Frames shared by splice, and viewers whose socket took only part of one.
        let spliced = (serverStats["result"] as? [String: Any])?["framesSpliced"] as? Double
        let fallbacks = (serverStats["result"] as? [String: Any])?["spliceFallbacks"] as? Double
        for v in viewers { close(v.fd) }
        close(control)

        let first = viewers[0].intervals.sorted()
        let every = viewers.flatMap(\.intervals).sorted()
        let received = viewers.reduce(0) { $0 + $1.frames }
        let bytes = viewers.reduce(0) { $0 + $1.bytes }
        var line = "FANOUT viewers=\(viewerCount) items=\(items) views=\(viewsOnScreen) seconds=\(format(elapsed, 3)) layout_changes=\(changes) layout_replies=\(controlReplies)"
        line += " frames=\(Int(published)) frames_sent=\(Int(sent)) skipped=\(Int(skipped)) viewers_alive=\(serverViewers.count)"
        line += " received_frames=\(received) received_mb=\(format(Double(bytes) / 1e6, 1))"
        line += " frame_bytes_avg=\(received > 0 ? bytes / received : 0) keyframe_bytes=\(keyframeBytes)"
        line += " frame_p50_ms=\(format(percentile(first, 50) * 1000, 2)) frame_p99_ms=\(format(percentile(first, 99) * 1000, 2))"
        line += " frame_max_ms=\(format((first.last ?? 0) * 1000, 2))"
        line += " all_frame_p50_ms=\(format(percentile(every, 50) * 1000, 2)) all_frame_p99_ms=\(format(percentile(every, 99) * 1000, 2))"
        if let p50 = frameTime["p50"] as? Double, let p99 = frameTime["p99"] as? Double, let max = frameTime["max"] as? Double {
            line += " tick_p50_ms=\(format(p50, 2)) tick_p99_ms=\(format(p99, 2)) tick_max_ms=\(format(max, 2))"
        }
        if let p50 = frameCPU["p50"] as? Double, let p99 = frameCPU["p99"] as? Double {
            line += " tick_cpu_p50_ms=\(format(p50, 2)) tick_cpu_p99_ms=\(format(p99, 2))"
        }
        if let a = jiffiesStart, let b = jiffiesEnd, b.total > a.total {
            line += " steal_pct=\(format((b.steal - a.steal) / (b.total - a.total) * 100, 1))"
            if let core = serverCore { line += " server_cpu=\(core)" }
        }
        if let spliced, let fallbacks { line += " frames_spliced=\(Int(spliced)) splice_fallbacks=\(Int(fallbacks))" }
        line += " client_cpu_pct=\(format(cpu / elapsed * 100, 1))"
        if let serverCPU {
            line += " cpu_pct=\(format(serverCPU / elapsed * 100, 1))"
            if published > 0 { line += " cpu_ms_per_frame=\(format(serverCPU / published * 1000, 2))" }
        }
        print(line)
        fflush(nil)
    }

    /// Counts the lines and frames in what a viewer read, timing each frame's last byte.
    static func consume(_ v: Viewer, _ raw: UnsafeRawBufferPointer, at time: Double) {
        v.bytes += raw.count
        let base = raw.baseAddress!
        var offset = 0
        while offset < raw.count {
            if !v.headDone {
                let take = min(framePrefix.count - v.head.count, raw.count - offset)
                var newlineInHead = -1
                for k in 0..<take where raw[offset + k] == 10 { newlineInHead = k; break }
                if newlineInHead >= 0 {
                    // A line shorter than the prefix: not a frame.
                    v.head.removeAll(keepingCapacity: true)
                    v.lines += 1
                    offset += newlineInHead + 1
                    continue
                }
                v.head.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[offset..<offset + take]))
                offset += take
                if v.head.count == framePrefix.count { v.headDone = true }
                continue
            }
            guard let hit = memchr(base + offset, 10, raw.count - offset) else { return }
            let end = UnsafeRawPointer(hit) - base
            offset = end + 1
            v.lines += 1
            if v.head == framePrefix {
                v.frames += 1
                if let last = v.lastFrameAt { v.intervals.append(time - last) }
                v.lastFrameAt = time
            }
            v.head.removeAll(keepingCapacity: true)
            v.headDone = false
        }
    }

    static func jsonObject(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }
}

@main
struct Main {
    static func main() {
        signal(SIGPIPE, SIG_IGN)
        let options = Options(Array(CommandLine.arguments.dropFirst()))
        switch options.mode {
        case "rpc": RPCLoad.run(options)
        default: Fanout.run(options)
        }
    }
}
