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
        _ = server.handle(message: Array(line))
    }
    return 0
}
