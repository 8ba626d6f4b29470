#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import TrellisCore
import TrellisProtocol

/// A blocking JSON-RPC 2.0 client over the server's Unix socket (one JSON message per line):
/// one request at a time, its reply matched by id, notifications kept in arrival order.
public final class RPCClient {
    public let path: String
    /// Seconds to wait for each reply.
    public var timeout: Double
    /// Notifications (messages without an id) received while waiting for replies.
    public private(set) var notifications: [JSONValue] = []

    private var fd: Int32
    private var framer = LineFramer(maximumMessageBytes: 256 << 20)
    private var frames: [[UInt8]] = []
    private var nextID = 1

    /// Replies can hold whole scenes; these limits only guard against a broken peer.
    static let replyLimits = JSONLimits(maximumDepth: 64, maximumStringBytes: 64 << 20, maximumElements: 1 << 26)

    /// Connects to the socket at `path`; fails with `.connect` (see `nothingListens`).
    public init(path: String, timeout: Double = 30) throws(ClientError) {
        self.path = path
        self.timeout = timeout
        var address = sockaddr_un()
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity else {
            throw .connect(path: path, errno: ENAMETOOLONG,
                           reason: "a socket path must be 1…\(capacity - 1) bytes, this one is \(bytes.count)")
        }
        #if canImport(Glibc)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_UNIX, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw .connect(path: path, errno: errno, reason: Self.errorText(errno)) }
        // The descriptor must not leak into a server this process starts (ServerLauncher).
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        var result: Int32
        repeat {
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
        } while result != 0 && errno == EINTR
        guard result == 0 else {
            let code = errno
            systemClose(fd)
            throw .connect(path: path, errno: code, reason: Self.errorText(code))
        }
        self.fd = fd
    }

    deinit { close() }

    /// The server's message limit, asked of `hello` the first time a request is over the
    /// protocol's default (servers before it reported none: the default then).
    private var serverMessageLimit: Int?

    /// Refuses, before sending, a request the server would refuse unread: a NaN or an infinity
    /// (written as null), or more bytes than the server reads in one message.
    private func checkSendable(_ buffer: ByteBuffer, method: String) throws(ClientError) {
        if buffer.holdsNonFiniteNumber {
            throw .unsendable("\(method): a number in the request is not finite (NaN or infinity); every number must be a finite value in its documented range")
        }
        let bytes = buffer.count - 1
        guard bytes > ProtocolLimits.defaultMaximumMessageBytes else { return }
        let limit = try maximumMessageBytes()
        guard bytes <= limit else {
            throw .unsendable("\(method): the request is \(bytes) bytes, over the server's limit of \(limit) bytes per message (trellisd --max-message-bytes); send it in smaller parts (fewer items or a shorter range per command)")
        }
    }

    /// Closes the connection (idempotent).
    public func close() {
        if fd >= 0 {
            systemClose(fd)
            fd = -1
        }
    }

    /// Sends a request and waits for its reply: the `result`, or `.server` for an error reply.
    @discardableResult
    public func call(_ method: String, _ params: [String: JSONValue] = [:]) throws(ClientError) -> JSONValue {
        let id = nextID
        nextID += 1
        var request: [String: JSONValue] = ["jsonrpc": .string("2.0"), "id": .number(Double(id)), "method": .string(method)]
        if !params.isEmpty { request["params"] = .object(params) }
        var buffer = ByteBuffer(capacity: 256)
        JSONWriter.write(.object(request), into: &buffer)
        buffer.append(UInt8(ascii: "\n"))
        return try exchange(buffer, id: id, method: method)
    }

    /// The same with params already written as one JSON object (`encodedParams`): a large
    /// request (a chunk of a reload) is written once, straight into bytes, with no tree of it.
    @discardableResult
    public func call(_ method: String, encodedParams: ByteBuffer) throws(ClientError) -> JSONValue {
        let id = nextID
        nextID += 1
        var buffer = ByteBuffer(capacity: encodedParams.count + 64 + method.utf8.count)
        buffer.append(utf8: "{\"jsonrpc\":\"2.0\",\"id\":\(id),\"method\":")
        JSONWriter.write(.string(method), into: &buffer)
        buffer.append(utf8: ",\"params\":")
        buffer.append(encodedParams)
        buffer.append(utf8: "}\n")
        return try exchange(buffer, id: id, method: method)
    }

    /// The most bytes the server reads in one message (its `hello`'s `limits.maxMessageBytes`,
    /// asked once): what a client splitting a large request into parts sizes them by.
    public func maximumMessageBytes() throws(ClientError) -> Int {
        if let serverMessageLimit { return serverMessageLimit }
        serverMessageLimit = ProtocolLimits.defaultMaximumMessageBytes
        let limits = try call("hello", ["client": .string("trellis")])["limits"]
        if let limit = limits?["maxMessageBytes"]?.numberValue, limit >= 1 { serverMessageLimit = Int(limit) }
        return serverMessageLimit ?? ProtocolLimits.defaultMaximumMessageBytes
    }

    /// Sends a whole request (`buffer`, with its line end) and waits for the reply to `id`.
    private func exchange(_ buffer: ByteBuffer, id: Int, method: String) throws(ClientError) -> JSONValue {
        try checkSendable(buffer, method: method)
        let deadline = Self.now() + timeout
        try sendAll(buffer.bytes, method: method, deadline: deadline)
        while true {
            let message = try nextMessage(method: method, deadline: deadline)
            guard let messageID = message["id"] else {
                notifications.append(message)
                continue
            }
            // A reply with id null answers a request the server could not read: ours.
            guard messageID == .number(Double(id)) || messageID == .null else { continue }
            if let result = message["result"] { return result }
            guard let error = message["error"], case .number(let code) = error["code"] ?? .null else {
                throw .badReply(JSONWriter.string(message))
            }
            let data = error["data"]
            throw .server(code: Int(code), message: error["message"]?.stringValue ?? "error \(Int(code))",
                          domainCode: data?["code"]?.stringValue, data: data)
        }
    }

    /// The next notification: one already received, else waits up to `timeout` seconds; nil on timeout.
    public func nextNotification(timeout seconds: Double) throws(ClientError) -> JSONValue? {
        if !notifications.isEmpty { return notifications.removeFirst() }
        do {
            while true {
                let message = try nextMessage(method: "a notification", deadline: Self.now() + seconds)
                if message["id"] == nil { return message }
            }
        } catch {
            if case .timeout = error { return nil }
            throw error
        }
    }

    // MARK: I/O

    private func sendAll(_ bytes: [UInt8], method: String, deadline: Double) throws(ClientError) {
        guard fd >= 0 else { throw .disconnected(path: path, reason: "the connection is closed") }
        var offset = 0
        while offset < bytes.count {
            try wait(for: Int16(POLLOUT), method: method, deadline: deadline)
            // MSG_NOSIGNAL: a server that went away is an error to report, not a SIGPIPE that
            // kills the CLI silently.
            let n = bytes.withUnsafeBytes { raw in
                send(fd, raw.baseAddress! + offset, raw.count - offset, Self.sendFlags)
            }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw .disconnected(path: path, reason: Self.errorText(errno))
            }
            offset += n
        }
    }

    private func nextMessage(method: String, deadline: Double) throws(ClientError) -> JSONValue {
        while true {
            if !frames.isEmpty {
                let line = frames.removeFirst()
                do { return try JSONParser.parse(line, limits: Self.replyLimits) } catch {
                    throw .badReply("\(error.message): \(String(decoding: line.prefix(200), as: UTF8.self))")
                }
            }
            guard fd >= 0 else { throw .disconnected(path: path, reason: "the connection is closed") }
            try wait(for: Int16(POLLIN), method: method, deadline: deadline)
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw .disconnected(path: path, reason: Self.errorText(errno))
            }
            if n == 0 { throw .disconnected(path: path, reason: "the server closed the connection while \(method) was pending") }
            for frame in framer.append(chunk[0..<n]) {
                switch frame {
                case .message(let bytes): frames.append(bytes)
                case .oversized(let count): throw .badReply("a message of \(count) bytes, over the client's limit")
                }
            }
        }
    }

    private func wait(for events: Int16, method: String, deadline: Double) throws(ClientError) {
        while true {
            let remaining = deadline - Self.now()
            guard remaining > 0 else { throw .timeout(method: method, seconds: timeout) }
            var descriptor = pollfd(fd: fd, events: events, revents: 0)
            let ready = poll(&descriptor, 1, Int32(min(remaining * 1000, 1_000_000).rounded(.up)))
            if ready < 0 {
                if errno == EINTR { continue }
                throw .disconnected(path: path, reason: Self.errorText(errno))
            }
            // POLLHUP/POLLERR fall through to recv/send, which report what happened.
            if ready > 0 { return }
        }
    }

    #if os(Linux)
    static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
    static let sendFlags: Int32 = 0
    #endif

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    static func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }
}

/// `close(2)`, out of the class so its `close()` method does not shadow it.
private func systemClose(_ fd: Int32) { _ = close(fd) }
