#if canImport(Glibc)
import Glibc
#endif

/// A connection to trellisd's Unix socket, driven by hand: blocking calls while the session is
/// set up, raw non-blocking reads once frames flow (no JSON library on the measured path).
final class UnixSocket {
    let fd: Int32
    /// Bytes read past the last line `readLine` returned.
    private var pending: [UInt8] = []

    init(path: String) throws(BenchFailure) {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw BenchFailure("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            throw BenchFailure("socket path too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard status == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw BenchFailure("connect \(path): \(reason)")
        }
    }

    deinit { close(fd) }

    /// Writes all of `text`, waiting for room when the socket is non-blocking.
    func write(_ text: String) throws(BenchFailure) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN {
                    var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&p, 1, 1000)
                    continue
                }
                throw BenchFailure("write: \(String(cString: strerror(errno)))")
            }
            offset += n
        }
    }

    /// The next line (without its newline), waiting at most `timeout` seconds.
    func readLine(timeout: Double = 30) throws(BenchFailure) -> String {
        let deadline = monotonicSeconds() + timeout
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            if let newline = pending.firstIndex(of: 10) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            let left = deadline - monotonicSeconds()
            guard left > 0 else { throw BenchFailure("trellisd sent no reply within \(Int(timeout)) s") }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, Int32(min(left, 1) * 1000) + 1) > 0 else { continue }
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n == 0 { throw BenchFailure("trellisd closed the connection") }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw BenchFailure("read: \(String(cString: strerror(errno)))")
            }
            pending.append(contentsOf: chunk[0..<n])
        }
    }

    /// Sends one request and returns the line that answers it (notifications before it are
    /// skipped); an error reply fails the run.
    func call(id: Int, method: String, params: String, timeout: Double = 30) throws(BenchFailure) -> String {
        try write(#"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":\#(params)}"# + "\n")
        while true {
            let line = try readLine(timeout: timeout)
            guard line.contains(#""id":\#(id),"#) else { continue }
            if line.contains(#""error":"#) { throw BenchFailure("\(method) failed: \(line.prefix(500))") }
            return line
        }
    }

    /// Bytes `readLine` read past its last line: frames that came with a reply.
    func takePending() -> [UInt8] {
        defer { pending = [] }
        return pending
    }

    func setNonBlocking() {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }
}
