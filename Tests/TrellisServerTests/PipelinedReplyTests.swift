import Foundation
import PropertyBased
import Testing
import TrellisCore
import TrellisProtocol
import TrellisTestSupport
import TrellisTransport

@testable import TrellisServer

/// Replies written straight into a connection's output: a pipelined read batch answered in one
/// write, in order, with frames between replies where they were written; `hello` answered from
/// its bytes (`answerDirectly`) exactly as the method table answers it; and every id echoed as
/// the general path echoes it.
@Suite(.serialized) final class PipelinedReplyTests {
    private var scratch: [ScratchDirectory] = []

    deinit { scratch.removeAll() }

    // MARK: The output buffer (FramedStream.withOutput)

    /// One read of five messages: replies written into the output (and a plain write between
    /// them, as a frame is) leave in one write, in the order they were written.
    @Test func aReadBatchLeavesInOneWriteInOrder() throws {
        let directory = ScratchDirectory(prefix: "trellis-pipe")
        scratch.append(directory)
        let path = directory.path + "/sub/t.sock"
        let loop = try EventLoop()
        let listener = try UnixSocketListener(loop: loop, path: path, maximumMessageBytes: 1024)
        var connection: Connection?
        var handled = 0
        listener.onConnection = { c in
            connection = c
            c.onMessage = { c, message in
                handled += 1
                _ = c.stream.withOutput { output in
                    output.append(contentsOf: UnsafeRawBufferPointer(rebasing: message[...]))
                    output.append(UInt8(ascii: "!"))
                    output.append(10)
                }
                if message.first == UInt8(ascii: "c") { c.write(Array("frame\n".utf8)) }
            }
        }
        let expected = "a!\nb!\nc!\nframe\nd!\ne!\n"
        let client = TransportTests.Client(path: path, send: "a\nb\nc\nd\ne\n", expectBytes: expected.utf8.count)
        client.start()
        let deadline = Date().addingTimeInterval(5)
        while !client.isDone && Date() < deadline {
            loop.runOnce()
            usleep(1000)
        }
        #expect(String(decoding: client.received, as: UTF8.self) == expected)
        #expect(handled == 5)
        // Sent in one send(2), so one read on the server (a Unix stream socket delivers it whole).
        #expect(connection?.stream.writeCalls == 1)
        listener.close()
        loop.close()
    }

    /// A message taken back from the output (a reply that came to hold a NaN) leaves nothing of
    /// itself, and what was written before it stays.
    @Test func aRewoundMessageLeavesNoTrace() {
        var buffer = ByteBuffer()
        buffer.append("kept\n")
        let mark = buffer.mark
        JSONWriter.writeNumber(1, into: &buffer)
        #expect(!buffer.holdsNonFiniteNumber(since: mark))
        JSONWriter.writeNumber(.nan, into: &buffer)
        #expect(buffer.holdsNonFiniteNumber(since: mark))
        #expect(buffer.bytes(since: mark) == Array("1null".utf8))
        buffer.rewind(to: mark)
        #expect(buffer.description == "kept\n")
        #expect(!buffer.holdsNonFiniteNumber)
    }

    // MARK: hello from its bytes

    /// The hand-assembled result is what the JSON writer gives for the same value.
    @Test(arguments: [1, 16, 1 << 20, 200_000_000])
    func helloResultIsTheWritersText(_ limit: Int) {
        var direct = ByteBuffer()
        ServerMethods.writeHello(maximumMessageBytes: limit, into: &direct)
        let value: JSONValue = .object([
            "limits": .object(["maxMessageBytes": .number(Double(limit))]),
            "protocol": .number(Double(ServerMethods.protocolVersion)),
            "server": .string("trellisd"),
            "version": .string(String(describing: ServerMethods.version)),
        ])
        #expect(direct.description == JSONWriter.string(value))
    }

    /// Every id the scanner passes is written back byte for byte as the writer writes the
    /// parsed id: integers of up to 15 digits, strings of printable ASCII.
    @Test func scannedIDsAreWrittenAsTheWriterWritesThem() {
        let choices = Gen<Int>.int(in: 0...Int.max).array(of: 3)
        let failures = SeededPropertyCheck.failures(count: 5_000, seed: 28, input: choices) { c in
            let digits = 1 + c[0] % 15
            var id: String
            if c[1] % 2 == 0 {
                let magnitude = c[2] % Int(pow(10, Double(digits)))
                id = (c[1] % 4 == 0 ? "-" : "") + String(magnitude)
            } else {
                // Printable ASCII, the quote and the backslash included (those leave the fast path).
                var rng = c[2]
                id = "\"" + String((0..<(c[0] % 24)).map { _ in
                    rng = rng &* 6364136223846793005 &+ 1442695040888963407
                    return Character(Unicode.Scalar(UInt8(0x20 + Int((UInt64(bitPattern: Int64(rng)) >> 33) % 95))))
                }) + "\""
            }
            let text = Array(#"{"jsonrpc":"2.0","id":\#(id),"method":"hello"}"#.utf8)
            return text.withUnsafeBytes { bytes -> String? in
                guard case .call(_, _, let parsedID?, _) = IncomingRequest.readParsed(bytes) else { return nil }
                guard let envelope = RequestEnvelope.scan(bytes) else {
                    // Only ids with a quote or a backslash inside, or "-0", may leave the fast path.
                    let inner = id.dropFirst().dropLast()
                    return inner.contains("\"") || inner.contains("\\") || id == "-0" ? nil : "\(id) left the fast path"
                }
                var written = ByteBuffer()
                envelope.writeID(of: bytes, into: &written)
                let expected = JSONWriter.string(parsedID)
                return written.description == expected ? nil : "\(id): wrote \(written), the writer \(expected)"
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5).joined(separator: "\n"))")
    }

    /// The direct path's other two readings of the envelope: empty params and the method name,
    /// each as the whole parse reads it.
    @Test func emptyParamsAndTheMethodNameReadAsTheParseReadsThem() throws {
        for params in ["", #","params":{}"#, ",\"params\":{ \n\t\r}", #","params":{"a":1}"#, #","params":{"":""}"#,
                       #","params":{"}":1}"#, #","params":{ "x" : [] }"#] {
            for method in ["hello", "hell", "helloo", "Hello", "stats", "hel.o"] {
                let text = Array(#"{"jsonrpc":"2.0","id":3,"method":"\#(method)"\#(params)}"#.utf8)
                try text.withUnsafeBytes { bytes in
                    let envelope = try #require(RequestEnvelope.scan(bytes), "\(params) \(method)")
                    guard case .object(let members) = try JSONParser.parse(bytes) else { throw TestFailure("not an object") }
                    #expect(envelope.hasNoParams(in: bytes) == (members["params"] ?? .object([:]) == .object([:])), "\(params)")
                    #expect(envelope.method(in: bytes, is: "hello") == (method == "hello"), "\(method)")
                }
            }
        }
    }

    /// Hostile envelopes: escaped or doubled keys, nested and odd params, bytes changed at
    /// random. Whatever the fast path makes of them, it is what the whole parse makes of them.
    @Test func hostileEnvelopesReadAsTheWholeParseReadsThem() {
        let fixed = [#"{"jsonrpc":"2.0","id":1,"m\u0065thod":"hello"}"#, #"{"jsonrpc":"2.0","id":1,"method":"hello","method":"hello"}"#,
                     #"{"jsonrpc":"2.0","id":1,"id":2,"method":"hello"}"#, #"{"jsonrpc":"2.0","jsonrpc":"2.0","id":1,"method":"hello"}"#,
                     #"{"jsonrpc":"2.0","id":1,"method":"hello","params":{},"params":{}}"#,
                     #"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"a":{"b":[{"c":"}]\""}]}}}"#,
                     #"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"client":"x"}}"#,
                     #"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"bogus":1}}"#,
                     #"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"a":"\"}"}"#,
                     #"{"jsonrpc":"2.0","id":1,"method":"hello","params":{ }}"#, #"{"jsonrpc":"2.0","id":1,"method":"hello","params":null}"#,
                     #"{"jsonrpc":"2.0","id":"\"","method":"hello"}"#, #"{"jsonrpc":"2.0","id":"","method":"hello"}"#,
                     #"{"jsonrpc":"2.0","id":1,"method":"hello\u0000"}"#, #"{"jsonrpc":"2.0","id":1,"method":"hellO"}"#,
                     #"{"jsonrpc":"2.0","id":1,"method":"hello"}}"#, #"{"jsonrpc":"2.0","id":1,"method":"hello",}"#]
        for text in fixed {
            let (fast, whole) = IncomingRequestTests.bothWays(Array(text.utf8))
            #expect(fast == whole, "\(text)")
        }
        let base = Array(#"{"jsonrpc":"2.0","id":12,"method":"hello","params":{"client":"a"}}"#.utf8)
        let choices = Gen<Int>.int(in: 0...Int.max).array(of: 6)
        let failures = SeededPropertyCheck.failures(count: 20_000, seed: 281, input: choices) { c in
            var bytes = base
            for k in 0..<(1 + c[0] % 3) {
                let at = c[1 + k] % bytes.count
                let byte = UInt8(truncatingIfNeeded: c[4] >> (8 * k))
                switch c[5] >> (2 * k) % 3 {
                case 0: bytes[at] = byte
                case 1: bytes.remove(at: at)
                default: bytes.insert(byte, at: at)
                }
                if bytes.isEmpty { return nil }
            }
            let (fast, whole) = IncomingRequestTests.bothWays(bytes)
            return fast == whole ? nil : "\(bytes): fast \(fast), whole \(whole)"
        }
        #expect(failures.isEmpty, "\(failures.prefix(5).joined(separator: "\n"))")
    }

    // MARK: A real server

    /// Reads raw reply lines (without their line ends) until `count` arrived or 10 s passed.
    static func lines(_ c: RPCConnection, count: Int) -> [String] {
        var buffer: [UInt8] = [], lines: [String] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while lines.count < count {
            let n = recv(c.fd, &chunk, chunk.count, 0)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            buffer += chunk[0..<n]
            while let newline = buffer.firstIndex(of: 10) {
                lines.append(String(decoding: buffer[..<newline], as: UTF8.self))
                buffer.removeSubrange(...newline)
            }
        }
        return lines
    }

    /// One write of requests of every kind: each is answered in order, ids echoed as sent, a
    /// malformed one and an unknown method get their errors while the rest are answered, a
    /// notification gets nothing, and a hello answered from its bytes is byte for byte the one
    /// the method table gives (params make it take the general path).
    @Test func aPipelinedBurstIsAnsweredInOrderWithItsIDs() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let c = try server.connect()
        let hello = #""method":"hello""#
        let requests: [(line: String, id: JSONValue?)] = [
            (#"{"jsonrpc":"2.0","id":1,\#(hello)}"#, .number(1)),
            (#"{"jsonrpc":"2.0","id":1,\#(hello),"params":{"client":"t"}}"#, .number(1)),
            (#"{"jsonrpc":"2.0","id":"a\"b\\c\u00e9\n",\#(hello)}"#, .string("a\"b\\c\u{e9}\n")),
            (#"{"jsonrpc":"2.0","id":999999999999999,\#(hello)}"#, .number(999_999_999_999_999)),
            (#"{"jsonrpc":"2.0","id":999999999999999,\#(hello),"params":{"client":"t"}}"#, .number(999_999_999_999_999)),
            (#"{"jsonrpc":"2.0","id":-42,\#(hello),"params":{ }}"#, .number(-42)),
            (#"{"jsonrpc":"2.0","id":null,\#(hello)}"#, .null),
            (#"{"jsonrpc":"2.0","id":5,\#(hello)"#, .null),   // cut short: a parse error, id null
            (#"{"jsonrpc":"2.0",\#(hello)}"#, nil),   // a notification: no reply
            (#"{"jsonrpc":"2.0","id":"s p a c e",\#(hello),"params":{}}"#, .string("s p a c e")),
            (#"{"jsonrpc":"2.0","id":77,"method":"no.such"}"#, .number(77)),
            (#"{"jsonrpc":"2.0","id":78,\#(hello),"params":{"bogus":1}}"#, .number(78)),
            // Past 2^53 a JSON number id would come back with other digits: refused, id null.
            (#"{"jsonrpc":"2.0","id":12345678901234567890,\#(hello)}"#, .null),
            (#"{"jsonrpc":"2.0","id":"last",\#(hello)}"#, .string("last")),
        ]
        let before = try c.result("stats")["requests"]?.numberValue ?? -1
        c.sendRaw(requests.map { $0.line + "\n" }.joined())
        let answered = requests.compactMap(\.id)
        let lines = Self.lines(c, count: answered.count)
        try #require(lines.count == answered.count, "\(lines)")
        for (line, id) in zip(lines, answered) {
            let reply = try JSONParser.parse(Array(line.utf8))
            #expect(reply["id"] == id, "\(line)")
        }
        #expect(lines[0] == lines[1])
        #expect(lines[3] == lines[4])
        #expect(lines[0].hasPrefix(#"{"jsonrpc":"2.0","id":1,"result":{"limits":{"maxMessageBytes":"#))
        #expect(try JSONParser.parse(Array(lines[7].utf8))["error"]?["code"] == .number(-32700))
        #expect(try JSONParser.parse(Array(lines[9].utf8))["error"]?["code"] == .number(-32601))
        #expect(try JSONParser.parse(Array(lines[10].utf8))["error"]?["code"] == .number(-32602))
        #expect(try JSONParser.parse(Array(lines[11].utf8))["error"]?["code"] == .number(-32600))
        // The server counted every request, the notification and the malformed one included
        // (and this stats).
        #expect(try c.result("stats")["requests"]?.numberValue == before + Double(requests.count + 1))
    }

    /// Random ids, each asked both ways in one pipeline: the direct reply and the method table's
    /// are the same bytes.
    @Test func helloFromItsBytesIsTheMethodTablesReply() throws {
        let server = try ServerProcess(arguments: ["--max-message-bytes", "123456"])
        defer { server.stop() }
        let c = try server.connect()
        // A fixed linear congruential sequence: the same ids every run.
        var state: UInt64 = 28
        func next(_ bound: UInt64) -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return (state >> 33) % bound
        }
        var text = "", ids: [String] = []
        for k in 0..<300 {
            let id = k % 2 == 0 ? String(Int(next(999_999_999)) * Int(next(1_000_000)) - 500_000_000_000_000)
                : "\"" + String((0..<next(20)).map { _ in Character(Unicode.Scalar(UInt8(0x20 + next(95)))) }
                    .filter { $0 != "\"" && $0 != "\\" }) + "\""
            ids.append(id)
            text += #"{"jsonrpc":"2.0","id":\#(id),"method":"hello"}"# + "\n"
            text += #"{"method":"hello","params":{"client":"x"},"id":\#(id),"jsonrpc":"2.0"}"# + "\n"
        }
        c.sendRaw(text)
        let lines = Self.lines(c, count: 600)
        try #require(lines.count == 600)
        for k in 0..<300 {
            #expect(lines[2 * k] == lines[2 * k + 1], "id \(ids[k])")
            #expect(lines[2 * k].contains(#""maxMessageBytes":123456"#))
            #expect(lines[2 * k].hasPrefix(#"{"jsonrpc":"2.0","id":\#(ids[k]),"result":"#), "\(lines[2 * k])")
        }
    }
}
