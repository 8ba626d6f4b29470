import Foundation

/// One HTTP/1.1 GET over a plain loopback TCP socket, so the tests need no HTTP client library:
/// read to the end (`Connection: close`), or only to the end of the head (a WebSocket
/// handshake, whose connection stays open); reads give up after 10 s. The socket is read on a
/// thread of its own: the server under test answers from Swift's cooperative pool, which has as
/// many threads as cores, and tests blocked in recv(2) on it could starve the very server
/// they wait for.
enum PlainHTTP {
    struct Reply: Sendable {
        var status: Int
        var head: String
        var body: String
    }

    /// `host` is the Host header (default 127.0.0.1:PORT, what was dialled).
    static func get(port: Int, path: String, host: String? = nil, headers: [(String, String)] = [], headOnly: Bool = false) async throws -> Reply {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result {
                    try blockingGet(port: port, path: path, host: host ?? "127.0.0.1:\(port)", headers: headers, headOnly: headOnly)
                })
            }.start()
        }
    }

    private static func blockingGet(port: Int, path: String, host: String, headers: [(String, String)], headOnly: Bool) throws -> Reply {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw WebTestFailure("socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw WebTestFailure("connect to port \(port): \(String(cString: strerror(errno)))") }
        let fields = headers.isEmpty ? [("Connection", "close")] : headers
        let lines = fields.map { "\($0.0): \($0.1)\r\n" }.joined()
        let request = Array("GET \(path) HTTP/1.1\r\nHost: \(host)\r\n\(lines)\r\n".utf8)
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count else {
            throw WebTestFailure("send: \(String(cString: strerror(errno)))")
        }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = recv(fd, &chunk, chunk.count, 0)
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw WebTestFailure("recv: \(String(cString: strerror(errno)))") }
            if n == 0 { break }
            received += chunk[0..<n]
            if headOnly, received.count >= 4, received.indices.dropLast(3).contains(where: { received[$0..<$0 + 4].elementsEqual([13, 10, 13, 10]) }) { break }
        }
        let text = String(decoding: received, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { throw WebTestFailure("no HTTP head in: \(text.prefix(200))") }
        let head = String(text[..<split.lowerBound])
        let statusWord = head.split(separator: " ").dropFirst().first.map(String.init) ?? ""
        return Reply(status: Int(statusWord) ?? 0, head: head, body: String(text[split.upperBound...]))
    }
}
