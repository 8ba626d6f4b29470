#if canImport(Glibc)
import Glibc
#endif
import CLibUV
import TrellisCore
import TrellisProtocol

/// A JSON-RPC connection to the server driven by a libuv loop (the viewer's: it must never block
/// on the socket while keys and signals wait): requests are written as they are made, replies
/// go to the callback of their id, notifications to `onNotification`, in arrival order. Confined
/// to the loop's thread.
final class LoopConnection {
    typealias Reply = (Result<JSONValue, ClientError>) -> Void

    let path: String
    /// Called once: nil when connected, else why not.
    var onConnect: (ClientError?) -> Void = { _ in }
    var onNotification: (JSONValue) -> Void = { _ in }
    /// Called after every message of one read has been handled (the viewer draws then, once
    /// per burst of frames rather than once per frame).
    var onReadHandled: () -> Void = {}
    /// Called once when the connection ends, with the reason.
    var onClose: (String) -> Void = { _ in }
    private(set) var isClosed = false

    private let handle: UnsafeMutablePointer<uv_pipe_t>
    private var framer = LineFramer(maximumMessageBytes: 256 << 20)
    private var pending: [Int: Reply] = [:]
    private var nextID = 1
    private let readBuffer: UnsafeMutableRawPointer
    private static let readBufferSize = 64 * 1024
    private var stream: UnsafeMutablePointer<uv_stream_t> { UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_stream_t.self) }

    /// The pipe is owned by itself (+1 in `handle.data`) until its close callback, so libuv's
    /// callbacks never outlive it.
    init(loop: UnsafeMutablePointer<uv_loop_t>, path: String) {
        self.path = path
        handle = UnsafeMutablePointer<uv_pipe_t>.allocate(capacity: 1)
        readBuffer = UnsafeMutableRawPointer.allocate(byteCount: Self.readBufferSize, alignment: 16)
        uv_pipe_init(loop, handle, 0)
        handle.pointee.data = Unmanaged.passRetained(self).toOpaque()
    }

    func connect() {
        let request = UnsafeMutablePointer<uv_connect_t>.allocate(capacity: 1)
        uv_pipe_connect(request, handle, path) { request, status in
            let pipe = request!.pointee.handle!
            request!.deallocate()
            guard status != UV_ECANCELED.rawValue else { return }
            let connection = Unmanaged<LoopConnection>.fromOpaque(pipe.pointee.data).takeUnretainedValue()
            connection.didConnect(status)
        }
    }

    private func didConnect(_ status: Int32) {
        guard !isClosed else { return }
        guard status == 0 else {
            let reason = String(cString: uv_strerror(status))
            onConnect(.connect(path: path, errno: -status, reason: reason))
            close(reason: "cannot connect: \(reason)")
            return
        }
        uv_read_start(stream, { handle, _, buf in
            let connection = Unmanaged<LoopConnection>.fromOpaque(handle!.pointee.data).takeUnretainedValue()
            buf!.pointee = uv_buf_init(connection.readBuffer.assumingMemoryBound(to: CChar.self), UInt32(LoopConnection.readBufferSize))
        }, { stream, nread, _ in
            let connection = Unmanaged<LoopConnection>.fromOpaque(stream!.pointee.data).takeUnretainedValue()
            connection.didRead(nread)
        })
        onConnect(nil)
    }

    /// Sends a request; `reply` gets its result or error (nil: the reply is not wanted).
    func call(_ method: String, _ params: [String: JSONValue], reply: Reply? = nil) {
        guard !isClosed else {
            reply?(.failure(.disconnected(path: path, reason: "the connection is closed")))
            return
        }
        let id = nextID
        nextID += 1
        if let reply { pending[id] = reply }
        var request: [String: JSONValue] = ["jsonrpc": .string("2.0"), "id": .number(Double(id)), "method": .string(method)]
        if !params.isEmpty { request["params"] = .object(params) }
        var buffer = ByteBuffer(capacity: 256)
        JSONWriter.write(.object(request), into: &buffer)
        buffer.append(UInt8(ascii: "\n"))
        write(buffer.bytes)
    }

    private func write(_ bytes: [UInt8]) {
        // Requests are small and rare; each gets its own copy, freed by its write callback.
        let copy = UnsafeMutableRawPointer.allocate(byteCount: bytes.count, alignment: 1)
        bytes.withUnsafeBytes { copy.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
        let request = UnsafeMutablePointer<uv_write_t>.allocate(capacity: 1)
        request.pointee.data = copy
        var buf = uv_buf_init(copy.assumingMemoryBound(to: CChar.self), UInt32(bytes.count))
        let status = uv_write(request, stream, &buf, 1) { request, status in
            request!.pointee.data.deallocate()
            let stream = request!.pointee.handle!
            request!.deallocate()
            guard status < 0, status != UV_ECANCELED.rawValue else { return }
            let connection = Unmanaged<LoopConnection>.fromOpaque(stream.pointee.data).takeUnretainedValue()
            connection.close(reason: "write error: \(String(cString: uv_strerror(status)))")
        }
        if status != 0 {
            copy.deallocate()
            request.deallocate()
            close(reason: "write error: \(String(cString: uv_strerror(status)))")
        }
    }

    private func didRead(_ nread: Int) {
        if nread < 0 {
            close(reason: nread == Int(UV_EOF.rawValue) ? "the server closed the connection" : "read error: \(String(cString: uv_strerror(Int32(nread))))")
            return
        }
        guard nread > 0 else { return }
        for frame in framer.append(UnsafeRawBufferPointer(start: readBuffer, count: nread)) {
            guard !isClosed else { return }
            switch frame {
            case .message(let bytes):
                guard let message = try? JSONParser.parse(bytes, limits: RPCClient.replyLimits) else {
                    close(reason: "the server sent a line that is not JSON")
                    return
                }
                dispatch(message)
            case .oversized(let count):
                close(reason: "the server sent a message of \(count) bytes, over the client's limit")
                return
            }
        }
        if !isClosed { onReadHandled() }
    }

    private func dispatch(_ message: JSONValue) {
        guard let idValue = message["id"] else {
            onNotification(message)
            return
        }
        guard let number = idValue.numberValue, let reply = pending.removeValue(forKey: Int(number)) else { return }
        if let result = message["result"] {
            reply(.success(result))
        } else if let error = message["error"], let code = error["code"]?.numberValue {
            let data = error["data"]
            reply(.failure(.server(code: Int(code), message: error["message"]?.stringValue ?? "error \(Int(code))",
                                   domainCode: data?["code"]?.stringValue, data: data)))
        } else {
            reply(.failure(.badReply(JSONWriter.string(message))))
        }
    }

    /// Closes the connection (idempotent): pending replies fail, `onClose` runs once.
    func close(reason: String) {
        guard !isClosed else { return }
        isClosed = true
        let waiting = pending
        pending = [:]
        for (_, reply) in waiting.sorted(by: { $0.key < $1.key }) { reply(.failure(.disconnected(path: path, reason: reason))) }
        onClose(reason)
        uv_read_stop(stream)
        uv_close(UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_handle_t.self)) { handle in
            let connection = Unmanaged<LoopConnection>.fromOpaque(handle!.pointee.data).takeRetainedValue()
            connection.readBuffer.deallocate()
            handle!.deallocate()
        }
    }
}
