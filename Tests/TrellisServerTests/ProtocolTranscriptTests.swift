import Foundation
import Testing
@testable import TrellisServer
import TrellisProtocol
import TrellisCore

/// Replays every transcript in Protocol/examples against a real `trellisd` and checks each
/// `expect` line against the message that arrives, in order (the format is in PROTOCOL.md,
/// "Example transcripts"). The transcripts are part of the spec: when one fails, either the
/// server or the spec is wrong, and the fix goes to whichever is.
@Suite struct ProtocolTranscriptTests {
    /// The transcripts the spec promises; more may exist.
    static let required = [
        "hello", "session-lifecycle", "flow-layout", "batch-refused", "batch-mapping", "animation-manual-clock",
        "attach-frames", "layout-transition", "view-selection", "scroll-animated", "bad-input", "limits", "shutdown",
        "dynamics-bodies", "dynamics-refused", "dynamics-fields", "scroll-physics", "session-fork",
    ]

    @Test func theSpecsTranscriptsExist() throws {
        let names = try ProtocolFiles.transcriptNames()
        for name in Self.required {
            #expect(names.contains(name + ".jsonl"), "Protocol/examples/\(name).jsonl is missing")
        }
    }

    @Test func transcriptLinesAreWellFormed() throws {
        for name in try ProtocolFiles.transcriptNames() {
            let transcript = try Transcript(named: name)
            #expect(transcript.expectations > 0, "\(name) expects nothing")
        }
    }

    @Test(arguments: try ProtocolFiles.transcriptNames())
    func transcriptReplaysAgainstALiveServer(_ name: String) throws {
        let transcript = try Transcript(named: name)
        let replay = try TranscriptReplay(transcript)
        for exchange in replay.exchanges {
            guard let actual = exchange.received else {
                Issue.record("\(name):\(exchange.line): expected \(JSONWriter.string(exchange.expected)), but nothing arrived (timeout or end of stream)")
                return
            }
            if let difference = TranscriptMatch.mismatch(exchange.expected, actual) {
                Issue.record("""
                    \(name):\(exchange.line): \(difference)
                      expected: \(JSONWriter.string(exchange.expected))
                      received: \(JSONWriter.string(actual))
                    """)
                return   // later lines would only repeat the shift
            }
        }
        if let extra = replay.trailing {
            Issue.record("\(name): a message arrived after the last expectation: \(JSONWriter.string(extra))")
        }
    }

    // The matcher itself, so that a lenient matcher cannot make every transcript pass.

    @Test func subsetMatchingIgnoresExtraKeysButNotArrayLengthsOrValues() throws {
        func json(_ text: String) throws -> JSONValue { try JSONParser.parse(text) }
        #expect(TranscriptMatch.mismatch(try json(#"{"a":1}"#), try json(#"{"a":1,"b":2}"#)) == nil)
        #expect(TranscriptMatch.mismatch(try json(#"{"a":{"b":[1,{"c":2}]}}"#), try json(#"{"a":{"b":[1,{"c":2,"d":3}],"e":0}}"#)) == nil)
        #expect(TranscriptMatch.mismatch(try json(#"{"a":1}"#), try json(#"{"a":2}"#)) != nil)
        #expect(TranscriptMatch.mismatch(try json(#"{"a":1}"#), try json(#"{"b":1}"#)) != nil)
        #expect(TranscriptMatch.mismatch(try json(#"[1,2]"#), try json(#"[1,2,3]"#)) != nil)
        #expect(TranscriptMatch.mismatch(try json(#"[1,2]"#), try json(#"[2,1]"#)) != nil)
        #expect(TranscriptMatch.mismatch(try json(#"{"a":null}"#), try json(#"{}"#)) != nil)
        #expect(TranscriptMatch.mismatch(try json(#"{"a":null}"#), try json(#"{"a":null}"#)) == nil)
        #expect(TranscriptMatch.mismatch(try json(#"1"#), try json(#"1.0"#)) == nil)
        #expect(TranscriptMatch.mismatch(try json(#""1""#), try json(#"1"#)) != nil)
        #expect(TranscriptMatch.mismatch(try json(#"{}"#), try json(#"[]"#)) != nil)
    }
}

/// The Protocol/ directory of this repository, found from this file's path
/// (Tests/TrellisServerTests/ProtocolTranscriptTests.swift).
enum ProtocolFiles {
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Protocol")
    static var examples: URL { root.appendingPathComponent("examples") }
    static var schema: URL { root.appendingPathComponent("schema") }

    /// The `.jsonl` files in Protocol/examples, sorted.
    static func transcriptNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: examples.path).filter { $0.hasSuffix(".jsonl") }.sorted()
    }

    static func parse(_ url: URL) throws -> JSONValue {
        let bytes = Array(try Data(contentsOf: url))
        do { return try JSONParser.parse(bytes) } catch { throw TestFailure("\(url.lastPathComponent): \(error.message)") }
    }
}

/// One transcript file: optional server arguments, then the lines to send and to expect.
struct Transcript {
    enum Step {
        /// A JSON value, written compactly, plus "\n".
        case send(JSONValue, line: Int)
        /// Text sent as it is, plus "\n".
        case sendRaw(String, line: Int)
        /// The next message from the server must match (see `TranscriptMatch`).
        case expect(JSONValue, line: Int)
    }

    let name: String
    var serverArguments: [String] = []
    var steps: [Step] = []

    init(named name: String) throws {
        self.name = name
        let text = try String(contentsOf: ProtocolFiles.examples.appendingPathComponent(name), encoding: .utf8)
        var lineNumber = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            if line.allSatisfy(\.isWhitespace) { continue }
            let value: JSONValue
            do { value = try JSONParser.parse(String(line)) } catch {
                throw TestFailure("\(name):\(lineNumber): not JSON: \(error.message)")
            }
            guard case .object(let members) = value, members.count == 1, let first = members.first else {
                throw TestFailure("\(name):\(lineNumber): a line is an object with exactly one key (send, sendRaw, expect, comment, server)")
            }
            let key = first.key, body = first.value
            switch key {
            case "send": steps.append(.send(body, line: lineNumber))
            case "sendRaw":
                guard case .string(let raw) = body else { throw TestFailure("\(name):\(lineNumber): sendRaw takes a string") }
                steps.append(.sendRaw(raw, line: lineNumber))
            case "expect": steps.append(.expect(body, line: lineNumber))
            case "comment":
                guard case .string = body else { throw TestFailure("\(name):\(lineNumber): comment takes a string") }
            case "server":
                guard steps.isEmpty, serverArguments.isEmpty, case .array(let args)? = body["args"],
                      case .object(let options) = body, options.count == 1 else {
                    throw TestFailure("\(name):\(lineNumber): {\"server\": {\"args\": [...]}} may only come before the first send")
                }
                serverArguments = try args.map { arg in
                    guard case .string(let s) = arg else { throw TestFailure("\(name):\(lineNumber): server args are strings") }
                    return s
                }
            default:
                throw TestFailure("\(name):\(lineNumber): unknown line kind '\(key)'")
            }
        }
    }

    var expectations: Int { steps.filter { if case .expect = $0 { true } else { false } }.count }
}

/// A transcript played against a fresh server on one connection: every send in order, one
/// message read per expect line (10 s timeout), then a short wait for anything unexpected.
struct TranscriptReplay {
    struct Exchange {
        var expected: JSONValue
        var line: Int
        /// Nil when nothing arrived in time (or the connection ended).
        var received: JSONValue?
    }

    var sent: [JSONValue] = []
    var exchanges: [Exchange] = []
    /// A message that arrived after the last expectation (none should).
    var trailing: JSONValue?

    init(_ transcript: Transcript) throws {
        let server = try ServerProcess(arguments: transcript.serverArguments)
        defer { server.stop() }
        let connection = try server.connect()
        for step in transcript.steps {
            switch step {
            case .send(let value, _):
                sent.append(value)
                connection.sendRaw(JSONWriter.string(value) + "\n")
            case .sendRaw(let text, _):
                connection.sendRaw(text + "\n")
            case .expect(let expected, let line):
                let received = connection.readMessage()
                exchanges.append(Exchange(expected: expected, line: line, received: received))
                if received == nil { return }
            }
        }
        var shortWait = timeval(tv_sec: 0, tv_usec: 300_000)
        setsockopt(connection.fd, SOL_SOCKET, SO_RCVTIMEO, &shortWait, socklen_t(MemoryLayout<timeval>.size))
        trailing = connection.readMessage()
    }
}

/// The transcript matching rule: objects match when every key of the expected object is
/// present in the received one and its value matches (other keys are ignored); arrays match
/// when they have the same length and match element by element, in order; numbers are equal
/// as IEEE doubles; strings, booleans and null are equal.
enum TranscriptMatch {
    /// Nil when `actual` matches `expected`; otherwise the JSON path of the first difference and why.
    static func mismatch(_ expected: JSONValue, _ actual: JSONValue, at path: String = "$") -> String? {
        switch (expected, actual) {
        case (.object(let e), .object(let a)):
            for key in e.keys.sorted() {
                guard let value = a[key] else { return "\(path).\(key): missing" }
                if let difference = mismatch(e[key]!, value, at: "\(path).\(key)") { return difference }
            }
            return nil
        case (.array(let e), .array(let a)):
            guard e.count == a.count else { return "\(path): \(a.count) elements, expected \(e.count)" }
            for (index, (x, y)) in zip(e, a).enumerated() {
                if let difference = mismatch(x, y, at: "\(path)[\(index)]") { return difference }
            }
            return nil
        case (.number(let x), .number(let y)):
            return x == y ? nil : "\(path): \(JSONWriter.string(actual)), expected \(JSONWriter.string(expected))"
        default:
            return expected == actual ? nil : "\(path): \(JSONWriter.string(actual)), expected \(JSONWriter.string(expected))"
        }
    }
}
