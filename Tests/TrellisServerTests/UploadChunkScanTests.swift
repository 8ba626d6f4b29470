import PropertyBased
import Testing
import TrellisCore
import TrellisProtocol
import TrellisTestSupport

@testable import TrellisServer

/// A chunk of a chunked upload (`data.reload.append`, `data.apply.append`) is read from its
/// bytes (`UploadChunkScanner`) when it has the common form, else parsed the checked way;
/// whichever reads it, the request must be the one the checked way gives (the same params,
/// the same sections and items, the same refusal).
@Suite struct UploadChunkScanTests {
    static func message(_ params: String, method: String = "data.reload.append") -> [UInt8] {
        Array(#"{"jsonrpc":"2.0","id":7,"method":"\#(method)","params":\#(params)}"#.utf8)
    }

    static func scanned(_ text: [UInt8]) -> Bool {
        text.withUnsafeBytes { bytes in
            guard case .call(_, _, _, let scanned) = IncomingRequest.read(bytes) else { return false }
            return scanned != nil
        }
    }

    @Test func commonChunksAreReadFromBytesAsTheParserReadsThem() {
        for params in [#"{"session":"s","upload":"u1","sections":[{"id":"a","items":[{"id":"i0"},{"id":"i1","size":[44,0.5]}]}]}"#,
                       #" { "sections" : [ { "items" : [ { "reuseId" : "big" , "id" : "x y" , "size" : [ 123.25 , 1 ] } ] , "id" : "s0" } , { "id" : "s1" } ] , "upload" : "t" , "session" : "a" } "#,
                       #"{"session":"s","upload":"u","sections":[]}"#,
                       #"{"session":"s","upload":"u","sections":[{"id":"","items":[]}]}"#,
                       #"{"session":"s","upload":"u","sections":[{"id":"a","items":[{"id":"i","size":[999999999999999,0.00000000000001]}]}]}"#,
                       // Payloads in their canonical form, as `trellis reload --items` writes them.
                       ##"{"session":"s","upload":"u","sections":[{"id":"a","items":[{"id":"item0","data":{"label":"#0"}},{"id":"i","data":{}}]}]}"##,
                       #"{"session":"s","upload":"u","sections":[{"id":"a","items":[{"data":{"a":1,"ab":-20,"b":true,"c":false,"d":null,"e":"x y"},"id":"i"}]}]}"#] {
            let text = Self.message(params)
            #expect(Self.scanned(text), "\(params)")
            let (fast, whole) = IncomingRequestTests.bothWays(text)
            #expect(fast == whole, "\(params)\nfast  \(fast)\nwhole \(whole)")
        }
        // The scanned items are what the checked way makes of them.
        let text = Self.message(#"{"session":"s","upload":"u","sections":[{"id":"a","items":[{"id":"i1","size":[44,0.5],"reuseId":"r"},{"id":"i2"}]}]}"#)
        text.withUnsafeBytes { bytes in
            guard case .call(let method, let params, _, let scanned?) = IncomingRequest.read(bytes) else {
                Issue.record("not scanned")
                return
            }
            #expect(method.name == "data.reload.append")
            #expect(params == .object(["session": .string("s"), "upload": .string("u")]))
            #expect(scanned == [Section(id: "a", items: [Item(id: "i1", size: Size(44, 0.5), reuseIdentifier: "r"), Item(id: "i2")])])
        }
    }

    /// Everything outside the common form goes the checked way: the request (or its refusal,
    /// worded by the checked way) is the whole parse's.
    @Test func unusualChunksAreLeftToTheCheckedWay() {
        for params in [#"{"session":"s","upload":"u","sections":[{"id":"a","items":[{"id":"i","data":{"x":[1]}}]}]}"#,
                       // Payloads the writer would write otherwise: keys out of order, a space,
                       // a fraction, an exponent, -0, a leading zero, an escape, not an object.
                       #"{"session":"s","upload":"u","sections":[{"id":"a","items":[{"id":"i","data":{"b":1,"a":2}}]}]}"#,
                       #"{"session":"s","upload":"u","sections":[{"id":"a","items":[{"id":"i","data":{"a":1,"a":2}}]}]}"#,
                       #"{"session":"s","upload":"u","sections":[{"id":"a","items":[{"id":"i","data":{"a": 1}}]}]}"#,
                       #"{"session":"s","upload":"u","sections":[{"id":"a","items":[{"id":"i","data":{"a":1.5}}]}]}"#,
                       #"{"session":"s","upload":"u","sections":[{"id":"a","items":[{"id":"i","data":{"a":1.0}}]}]}"#,
                       #"{"session":"s","upload":"u","sections":[{"id":"a","items":[{"id":"i","data":{"a":1e3}}]}]}"#,
                       #"{"session":"s","upload":"u","sections":[{"id":"a","items":[{"id":"i","data":{"a":-0}}]}]}"#,
                       #"{"session":"s","upload":"u","sections":[{"id":"a","items":[{"id":"i","data":{"a":1234567890123456}}]}]}"#,
                       #"{"session":"s","upload":"u","sections":[{"id":"a","items":[{"id":"i","data":{"a":"\/"}}]}]}"#,
                       #"{"session":"s","upload":"u","sections":[{"id":"a","items":[{"id":"i","data":"x"}]}]}"#,
                       #"{"session":"s","upload":"u","sections":[{"id":"a","items":[{"id":"i","data":null}]}]}"#,
                       #"{"session":"s","upload":"u","sections":[{"id":"a","items":[{"id":"\u0041"}]}]}"#,
                       #"{"session":"s","upload":"u","sections":[{"id":"a","items":[{"id":"é"}]}]}"#,
                       #"{"session":"s","upload":"u","sections":[{"id":"a","items":[{"id":"i","size":[0,1]}]}]}"#,
                       #"{"session":"s","upload":"u","sections":[{"id":"a","items":[{"id":"i","size":[-1,1]}]}]}"#,
                       #"{"session":"s","upload":"u","sections":[{"id":"a","items":[{"id":"i","size":[1e2,1]}]}]}"#,
                       #"{"session":"s","upload":"u","sections":[{"id":"a","items":[{"id":"i","size":[01,1]}]}]}"#,
                       #"{"session":"s","upload":"u","sections":[{"id":"a","items":[{"id":"i","size":[1.,1]}]}]}"#,
                       #"{"session":"s","upload":"u","sections":[{"id":"a","items":[{"id":"i","size":[1234567890123456,1]}]}]}"#,
                       #"{"session":"s","upload":"u","sections":[{"id":"a","items":[{"id":"i","size":[1,2,3]}]}]}"#,
                       #"{"session":"s","upload":"u","sections":[{"id":"a","items":[{"id":"i","id":"j"}]}]}"#,
                       #"{"session":"s","upload":"u","sections":[{"id":"a","items":[{"id":"i","extra":1}]}]}"#,
                       #"{"session":"s","upload":"u","sections":[{"id":"a","items":[{"size":[1,1]}]}]}"#,
                       #"{"session":"s","upload":"u","sections":[{"id":"a","items":[{"id":"i","reuseId":null}]}]}"#,
                       #"{"session":"s","upload":"u","sections":[{"id":"a","items":null}]}"#,
                       #"{"session":"s","upload":"u","sections":[{"id":"a","items":[{"id":"i"},]}]}"#,
                       #"{"session":"s","upload":"u","sections":{}}"#,
                       #"{"session":"s","upload":"u"}"#,
                       #"{"session":"s","upload":"u","sections":[],"more":1}"#,
                       #"{"session":1,"upload":"u","sections":[]}"#] {
            let text = Self.message(params)
            #expect(!Self.scanned(text), "\(params)")
            let (fast, whole) = IncomingRequestTests.bothWays(text)
            #expect(fast == whole, "\(params)\nfast  \(fast)\nwhole \(whole)")
        }
    }

    /// Only the two append methods read their params from bytes.
    @Test func otherMethodsParseTheirParams() {
        let params = #"{"session":"s","upload":"u","sections":[]}"#
        #expect(Self.scanned(Self.message(params, method: "data.apply.append")))
        #expect(!Self.scanned(Self.message(params, method: "data.reload.commit")))
        #expect(!Self.scanned(Self.message(params, method: "data.reload")))
    }

    /// Generated chunks, common or not: each choice picks a part (key order, spacing, ids,
    /// sizes, reuse ids, payloads, stray keys), then a byte may be changed, dropped or doubled.
    @Test func bothPathsGiveTheSameChunk() {
        let choices = Gen<Int>.int(in: 0...9_999).array(of: 16)
        var scannedCount = 0
        let failures = SeededPropertyCheck.failures(count: 20_000, seed: 11, input: choices) { c in
            let text = Self.chunk(c)
            if Self.scanned(text) { scannedCount += 1 }
            let (fast, whole) = IncomingRequestTests.bothWays(text)
            return fast == whole ? nil : "\(String(decoding: text, as: UTF8.self)):\nfast  \(fast)\nwhole \(whole)"
        }
        #expect(failures.isEmpty, "\(failures.prefix(5).joined(separator: "\n"))")
        // Both paths are exercised.
        #expect(scannedCount > 2_000 && scannedCount < 18_000, "\(scannedCount) of 20000 read from bytes")
    }

    /// A line a client passes on unparsed (`isCommonItem`) is always an item object the parser
    /// reads, with a string id; generated lines, common or not.
    @Test func aCommonItemLineIsAnItemTheParserReads() {
        let choices = Gen<Int>.int(in: 0...9_999).array(of: 16)
        var common = 0
        let failures = SeededPropertyCheck.failures(count: 10_000, seed: 12, input: choices) { c in
            let text = Self.chunk(c)
            // Each item object of the generated chunk, as a line of its own.
            guard let start = text.firstIndex(of: UInt8(ascii: "[")), start + 1 < text.count else { return nil }
            var lines: [[UInt8]] = [], depth = 0, begin = 0
            for k in (start + 1)..<text.count {
                if text[k] == UInt8(ascii: "{") { if depth == 0 { begin = k }; depth += 1 }
                if text[k] == UInt8(ascii: "}") { depth -= 1; if depth == 0 { lines.append(Array(text[begin...k])) } }
            }
            for line in lines where line.withUnsafeBytes(UploadChunkScanner.isCommonItem) {
                common += 1
                guard case .object(let members)? = try? JSONParser.parse(line), members["id"]?.stringValue != nil else {
                    return "\(String(decoding: line, as: UTF8.self)) passed as an item"
                }
            }
            return nil
        }
        #expect(failures.isEmpty, "\(failures.prefix(5).joined(separator: "\n"))")
        #expect(common > 1_000, "\(common) common lines")
        #expect(Array(#"  {"id":"a","size":[1,2]} "#.utf8).withUnsafeBytes(UploadChunkScanner.isCommonItem))
        #expect(!Array(#"{"id":"a"} x"#.utf8).withUnsafeBytes(UploadChunkScanner.isCommonItem))
        #expect(!Array(#""a""#.utf8).withUnsafeBytes(UploadChunkScanner.isCommonItem))
    }

    static func chunk(_ c: [Int]) -> [UInt8] {
        let spaces = ["", " ", "\n", "\t "]
        func space(_ k: Int) -> String { c[k] % 4 == 0 ? spaces[c[k] / 4 % spaces.count] : "" }
        let ids = ["\"i\"", "\"\"", "\"a b\"", "\"x\\\"y\"", "\"\u{e9}\"", "1", "null", "\"0123456789abcdef0123\""]
        let numbers = ["1", "44", "0.5", "123.25", "0", "-3", "1e2", "01", "1.", "999999999999999", "1234567890123456", "0.000001", "\"1\""]
        let reuse = ["\"cell\"", "\"big\"", "null", "3", "\"\""]
        var sections: [String] = []
        for s in 0..<(c[0] % 3) {
            var items: [String] = []
            for k in 0..<(c[1 + s] % 5) {
                let pick = c[4 + (s + k) % 8] + k * 31
                var members = ["\"id\":\(space(12))\(ids[pick % 9 < 6 ? 0 : pick / 9 % ids.count])"]
                if pick % 3 == 0 { members.append("\"size\":[\(numbers[pick / 3 % numbers.count]),\(space(13))\(numbers[pick / 7 % numbers.count])]") }
                if pick % 5 == 0 { members.append("\"reuseId\":\(reuse[pick / 5 % reuse.count])") }
                let payloads = ["{\"t\":1}", "{\"label\":\"#3\"}", "{}", "{\"b\":1,\"a\":2}", "{\"a\": 1}", "{\"a\":1.5}", "{\"a\":-0}",
                                "{\"a\":null,\"b\":true,\"c\":false,\"d\":-12}", "[1]", "null", "{\"a\":{\"b\":1}}", "{\"a\":\"\\n\"}"]
                if pick % 4 == 1 { members.append("\"data\":\(payloads[pick / 4 % payloads.count])") }
                if pick % 29 == 0 { members.append("\"x\":1") }
                if pick % 2 == 0 { members.reverse() }
                items.append("{\(members.joined(separator: ","))}")
            }
            let itemsMember = c[12] % 7 == 0 ? "" : ",\(space(14))\"items\":[\(items.joined(separator: ",\(space(15))"))]"
            sections.append("{\"id\":\"s\(s)\"\(itemsMember)}")
        }
        var members = ["\"session\":\"s\"", "\"upload\":\"u\"", "\"sections\":[\(sections.joined(separator: ","))]"]
        if c[13] % 19 == 0 { members.append("\"extra\":1") }
        if c[13] % 17 == 1 { members.removeFirst() }
        members = Array(members[(c[14] % members.count)...] + members[..<(c[14] % members.count)])
        var bytes = message("{\(space(10))\(members.joined(separator: "\(space(11)),"))}")
        if c[15] % 5 == 0, !bytes.isEmpty {
            let at = c[15] / 5 % bytes.count
            switch c[15] % 3 {
            case 0: bytes[at] = UInt8(truncatingIfNeeded: c[15] / 7)
            case 1: bytes.remove(at: at)
            default: bytes.insert(bytes[at], at: at)
            }
        }
        return bytes
    }
}
