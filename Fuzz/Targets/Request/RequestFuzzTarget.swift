import FuzzDriver
import TrellisCore
import TrellisProtocol
import TrellisServer

/// The request path on any bytes: each line is read as a JSON-RPC request exactly as the
/// server reads one from its socket (`RequestEnvelope`'s fast path or the whole parse) and run
/// through the server's own method table (`InProcessServer.handle(message:)`), on a session
/// seeded with data, so the engine is driven too. Whatever it is, the server answers with a
/// result or an error and never crashes.
/// A server with a session seeded with data.
func seededServer() -> InProcessServer {
    let server = try! InProcessServer()
    _ = server.call("session.create", .object([
        "name": .string("fuzz"), "clock": .string("manual"),
        "layout": .object(["type": .string("flow"), "itemSize": .array([.number(60), .number(60)]),
                           "headerSize": .array([.number(0), .number(20)]), "pinHeaders": .bool(true)]),
        "sections": .array((0..<3).map { s in
            .object(["id": .string("s\(s)"), "items": .array((0..<12).map { .object(["id": .string("s\(s)i\($0)")]) })])
        }),
    ]))
    return server
}

/// Inputs change the server's state (sessions, items, clocks); a fresh server every 2,000
/// inputs keeps that state, and so the memory and the cost of an input, bounded over a long
/// run, while inputs still meet the state earlier ones left.
nonisolated(unsafe) var server = seededServer()
nonisolated(unsafe) var inputsOnThisServer = 0

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    inputsOnThisServer += 1
    if inputsOnThisServer > 2_000 {
        server = seededServer()
        inputsOnThisServer = 0
    }
    let bytes = UnsafeBufferPointer(start: data, count: size)
    for line in bytes.split(separator: 10, omittingEmptySubsequences: true).prefix(64) {
        // shutdown would only set a flag nothing reads here; skipped so every input runs alike.
        if line.firstRange(of: Array("shutdown".utf8)) != nil { continue }
        checkEnvelope(Array(line))
        _ = server.handle(message: Array(line))
    }
    return 0
}

/// What the server reads from an envelope's bytes without a tree (the id it echoes, whether the
/// params are empty, the method name) must be what the whole parse reads: a reply answered from
/// the bytes (`hello`) is then the method table's.
func checkEnvelope(_ line: [UInt8]) {
    line.withUnsafeBytes { bytes in
        guard let envelope = RequestEnvelope.scan(bytes) else { return }
        // The scan only delimits the params: bad ones are refused by the parse that follows.
        guard case .object(let members)? = try? JSONParser.parse(bytes) else { return }
        if let id = members["id"] {
            var written = ByteBuffer()
            envelope.writeID(of: bytes, into: &written)
            if written.bytes != JSONWriter.bytes(id) {
                fatalError("id written as \(written), the writer writes \(JSONWriter.string(id))")
            }
        } else if envelope.id != .none {
            fatalError("the scanner found an id the parser does not: \(String(decoding: line, as: UTF8.self))")
        }
        let noParams = members["params"] == nil || members["params"] == .object([:])
        if envelope.hasNoParams(in: bytes) != noParams {
            fatalError("params read as \(noParams ? "" : "not ")empty by the parser: \(String(decoding: line, as: UTF8.self))")
        }
        if envelope.method(in: bytes, is: "hello") != (members["method"] == .string("hello")) {
            fatalError("the method name read differently: \(String(decoding: line, as: UTF8.self))")
        }
    }
}
