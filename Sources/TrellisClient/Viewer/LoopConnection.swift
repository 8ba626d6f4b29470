#if canImport(Glibc)
import Glibc
#endif
import TrellisCore
import TrellisProtocol
import TrellisTransport

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

    private let stream: FramedStream
    private var pending: [Int: Reply] = [:]
    private var nextID = 1

    /// The stream keeps the connection alive until it has closed, so libuv's callbacks never
    /// outlive it.
    init(loop: EventLoop, path: String) {
        self.path = path
        stream = FramedStream(loop: loop, maximumMessageBytes: 256 << 20)
        stream.owner = self
        stream.onMessage = { [unowned self] bytes in
            guard let message = try? JSONParser.parse(bytes, limits: RPCClient.replyLimits) else {
                return self.close(reason: "the server sent a line that is not JSON")
            }
            self.dispatch(message)
        }
        stream.onOversized = { [unowned self] count in
            self.close(reason: "the server sent a message of \(count) bytes, over the client's limit")
        }
        stream.onReadBatchEnd = { [unowned self] in self.onReadHandled() }
        stream.onClose = { [unowned self] reason in
            self.close(reason: reason == "peer closed" ? "the server closed the connection" : reason)
        }
    }

    func connect() {
        stream.connect(to: path) { [unowned self] status in
            guard !self.isClosed else { return }
            guard status == 0 else {
                let reason = TransportError.reason(status)
                self.onConnect(.connect(path: self.path, errno: -status, reason: reason))
                self.close(reason: "cannot connect: \(reason)")
                return
            }
            self.stream.startReading()
            self.onConnect(nil)
        }
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
        buffer.withUnsafeBytes { stream.write($0) }
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
        stream.close(reason: reason)
    }
}
