import PropertyBased
import Testing
import TrellisCore
import TrellisProtocol
import TrellisTestSupport

@testable import TrellisServer

/// Requests are read on a fast path (`RequestEnvelope`, no tree for the envelope) or parsed
/// whole; whichever reads a message, the outcome must be the one the whole parse gives.
@Suite struct IncomingRequestTests {
    /// An outcome as text: the method, params and id of a call, or the error and id of a refusal.
    static func describe(_ request: IncomingRequest) -> String {
        switch request {
        case .call(let method, var params, let id, var scanned):
            // A method that reads its sections from bytes: the whole parse's sections decoded
            // as the method would decode them, so both paths show the same thing.
            if method.scanParams != nil, scanned == nil, case .object(var members) = params, let list = members["sections"]?.arrayValue,
               let decoded = try? WireDecoding.sections(list, path: "params.sections") {
                members["sections"] = nil
                params = .object(members)
                scanned = decoded
            }
            let sections = scanned.map { list in
                " sections " + list.map { section in
                    "\(section.id.rawValue)[" + section.items.map { "\($0.id.rawValue) \($0.size.map { "\($0.width)x\($0.height)" } ?? "-") \($0.reuseIdentifier) \($0.data.map { "\($0)" } ?? "-")" }.joined(separator: ", ") + "]"
                }.joined(separator: " ")
            } ?? ""
            return "call \(method.name) params \(JSONWriter.string(params))\(sections) id \(id.map(JSONWriter.string) ?? "none")"
        case .refused(let error, let id):
            return "refused \(error.code) \(error.message) id \(id.map(JSONWriter.string) ?? "none")"
        }
    }

    static func bothWays(_ text: [UInt8]) -> (fast: String, whole: String) {
        text.withUnsafeBytes { (describe(IncomingRequest.read($0)), describe(IncomingRequest.readParsed($0))) }
    }

    @Test func commonRequestsTakeTheFastPath() {
        for text in [#"{"jsonrpc":"2.0","id":1,"method":"hello"}"#,
                     #" { "method" : "stats" , "params" : { "session" : "a\"b" } , "id" : "x-1" , "jsonrpc" : "2.0" } "#,
                     #"{"jsonrpc":"2.0","method":"hello","params":{}}"#,
                     #"{"jsonrpc":"2.0","id":-42,"method":"session.list","params":{"a":[1,{"b":"}"}]}}"#] {
            let bytes = Array(text.utf8)
            #expect(bytes.withUnsafeBytes { RequestEnvelope.scan($0) } != nil, "\(text)")
            let (fast, whole) = Self.bothWays(bytes)
            #expect(fast == whole, "\(text)")
        }
    }

    @Test func unusualRequestsAreLeftToTheWholeParse() {
        for text in [#"{"jsonrpc":"2.0","id":1.5,"method":"hello"}"#, #"{"jsonrpc":"2.0","id":-0,"method":"hello"}"#,
                     // More digits than an Int holds (fuzz-request found this overflow trap).
                     #"{"jsonrpc":"2.0","id":4777777777777777777777777777777777777,"method":"hello"}"#,
                     #"{"jsonrpc":"2.0","id":-99999999999999999999,"method":"hello"}"#,
                     #"{"jsonrpc":"2.0","id":1234567890123456,"method":"hello"}"#, #"{"jsonrpc":"2.0","id":null,"method":"hello"}"#,
                     #"{"jsonrpc":"2.0","id":"\u0041","method":"hello"}"#, #"{"jsonrpc":"2.0","method":"hel\u006co"}"#,
                     #"{"jsonrpc":"2.0","method":"hello","extra":1}"#, #"{"jsonrpc":"2.0","method":"hello","method":"stats"}"#,
                     #"{"jsonrpc":"2.0","method":"hello","params":[]}"#, #"{"jsonrpc":"1.0","method":"hello"}"#,
                     #"{"jsonrpc":"2.0","method":"hello"} x"#, #"{"jsonrpc":"2.0","method":"hello","params":{"a":}}"#,
                     #"{"jsonrpc":"2.0","id":01,"method":"hello"}"#, "{\"jsonrpc\":\"2.0\",\"method\":\"h\u{e9}llo\"}"] {
            let bytes = Array(text.utf8)
            #expect(bytes.withUnsafeBytes { RequestEnvelope.scan($0) } == nil || text.contains("params\":{\"a\":}"), "\(text)")
            let (fast, whole) = Self.bothWays(bytes)
            #expect(fast == whole, "\(text)")
        }
    }

    /// A number id past 2^53 − 1 would come back with other digits: refused naming the range
    /// (with id null); up to it, it comes back exactly, on either path.
    @Test func numberIDsAreExactOrRefused() {
        for (id, kept) in [("9007199254740991", true), ("-9007199254740991", true), ("123456789012345", true),
                           ("9007199254740993", false), ("12345678901234567890", false), ("-99999999999999999999", false), ("1e300", false)] {
            let text = Array(#"{"jsonrpc":"2.0","id":\#(id),"method":"hello"}"#.utf8)
            let (fast, whole) = Self.bothWays(text)
            #expect(fast == whole, "\(id)")
            if kept {
                #expect(whole.hasSuffix("id \(id)"), "\(id): \(whole)")
            } else {
                #expect(whole == "refused -32600 id: a number id must be within ±9007199254740991 (integers past 2^53 lose digits); send a larger id as a string id null", "\(id): \(whole)")
            }
        }
    }

    /// Generated requests, well formed or not: each choice picks a part (key order, spacing,
    /// the id's form, the method, the params, stray keys), then a byte may be changed, dropped
    /// or doubled.
    @Test func bothPathsGiveTheSameOutcome() {
        let choices = Gen<Int>.int(in: 0...9_999).array(of: 12)
        var scanned = 0
        let failures = SeededPropertyCheck.failures(count: 30_000, seed: 5, input: choices) { c in
            let text = Self.request(c)
            if text.withUnsafeBytes({ RequestEnvelope.scan($0) }) != nil { scanned += 1 }
            let (fast, whole) = Self.bothWays(text)
            return fast == whole ? nil : "\(String(decoding: text, as: UTF8.self)): fast \(fast), whole \(whole)"
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        // Both paths are exercised.
        #expect(scanned > 3_000 && scanned < 27_000, "\(scanned) of 30000 on the fast path")
    }

    /// Params are parsed one level down on the fast path: the depth limit still counts from
    /// the message.
    @Test(arguments: [63, 64, 65])
    func paramsAtTheDepthLimit(_ depth: Int) {
        let nested = String(repeating: "[", count: depth - 2) + String(repeating: "]", count: depth - 2)
        let text = Array(#"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"a":\#(nested)}}"#.utf8)
        let (fast, whole) = Self.bothWays(text)
        #expect(fast == whole)
        #expect(whole.hasPrefix(depth <= JSONLimits.default.maximumDepth ? "call" : "refused -32700"), "\(whole.prefix(60))")
    }

    static func request(_ c: [Int]) -> [UInt8] {
        let spaces = ["", " ", "\t", "\n ", "\r\n"]
        func space(_ k: Int) -> String { c[k] % 3 == 0 ? spaces[c[k] / 3 % spaces.count] : "" }
        let ids = ["1", "-7", "0", "12", "999999999999999", "1000000000000000", "99999999999999999999999", "1.0", "1e2", "-0", "\"a\"", "\"\"", "\"a\\\"b\"",
                   "\"\\u00e9\"", "null", "true", "[1]", "{}", "01", "\"\u{e9}\"", "\"a\u{1}\""]
        let methods = ["\"hello\"", "\"stats\"", "\"session.list\"", "\"nope\"", "\"\"", "\"hel\\u006co\"", "1", "null",
                       "\"shutdownx\"", "\"hello \""]
        let params = ["{}", "{\"client\":\"x\"}", "{\"client\":1}", "{\"session\":\"s\"}", "{\"a\":[1,{\"b\":\"}]\"}]}",
                      "[]", "null", "\"x\"", "{\"a\":}", "{\"a\":1,}", "{\"client\":\"\\ud800\"}", "{ }", "{\"x\":{\"y\":{\"z\":[[[]]]}}}"]
        let versions = ["\"2.0\"", "\"1.0\"", "2", "\"2.0 \"", "null"]
        var members: [String] = []
        if c[0] % 10 != 0 { members.append("\"jsonrpc\":\(space(1))\(versions[c[0] % 7 < 5 ? 0 : c[0] / 7 % versions.count])") }
        if c[2] % 5 != 0 { members.append("\"id\":\(space(3))\(ids[c[2] / 5 % ids.count])") }
        if c[4] % 12 != 0 { members.append("\"method\"\(space(5)):\(methods[c[4] % 3 == 0 ? c[4] / 3 % methods.count : 0])") }
        if c[6] % 3 != 0 { members.append("\"params\":\(space(7))\(params[c[6] / 3 % params.count])") }
        if c[8] % 15 == 0 { members.append("\"extra\":1") }
        if c[8] % 17 == 1 { members.append("\"method\":\"stats\"") }
        // Key order: rotated.
        if !members.isEmpty { members = Array(members[(c[9] % members.count)...] + members[..<(c[9] % members.count)]) }
        var bytes = Array("\(space(9)){\(space(10))\(members.joined(separator: "\(space(11)),"))\(space(10))}\(space(11))".utf8)
        // A byte changed, dropped or doubled.
        if c[10] % 4 == 0, !bytes.isEmpty {
            let at = c[11] % bytes.count
            switch c[10] / 4 % 3 {
            case 0: bytes[at] = UInt8(truncatingIfNeeded: c[11] / 7)
            case 1: bytes.remove(at: at)
            default: bytes.insert(bytes[at], at: at)
            }
        }
        return bytes
    }
}
