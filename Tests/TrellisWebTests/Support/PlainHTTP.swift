import Foundation

/// One HTTP/1.1 GET over a plain loopback TCP socket (`Connection: close`, read to the end),
/// so the page test needs no HTTP client library; reads give up after 10 s.
enum PlainHTTP {
    struct Reply {
        var status: Int
        var head: String
        var body: String
    }

    static func get(port: Int, path: String) throws -> Reply {
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
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n".utf8)
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
        }
        let text = String(decoding: received, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { throw WebTestFailure("no HTTP head in: \(text.prefix(200))") }
        let head = String(text[..<split.lowerBound])
        let statusWord = head.split(separator: " ").dropFirst().first.map(String.init) ?? ""
        return Reply(status: Int(statusWord) ?? 0, head: head, body: String(text[split.upperBound...]))
    }
}
