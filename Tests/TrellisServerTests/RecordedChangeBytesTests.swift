import Testing
import TrellisProtocol
@testable import TrellisServer

/// A seek history keeps each change as the bytes of its script line (or its params' JSON) and
/// reads the params back only to replay it: what it reads back must be the very params, every
/// double bit for bit, whatever the line's form and the session's name.
@Suite struct RecordedChangeBytesTests {
    /// `params` of `method` written as the recorder writes them, kept, and read back.
    static func roundTrip(_ method: String, _ params: String, session: String, form: RecordedChangeBytes.Form = .line,
                          into bytes: inout RecordedChangeBytes) throws -> (JSONValue, JSONValue) {
        let value = try JSONParser.parse(params)
        var line = ByteBuffer()
        line.append("advance x 5ms\n")   // bytes before the change's own, as the recorder has
        let start = line.count
        if form == .line { RecordedScriptLines.change(method, params: value, session: session, into: &line) } else { JSONWriter.write(value, into: &line) }
        let span = bytes.append(line, from: start, form: form)
        return (value, try bytes.params(span, method: method, session: session))
    }

    static func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
        a == b && JSONWriter.string(a) == JSONWriter.string(b)
    }

    @Test func everyLineFormReadsBackAsItsParams() throws {
        var bytes = RecordedChangeBytes()
        let names = ["m", "my list", "it's", "a --to=1,2", "-dash", "ünï", "x'--to=3,4 --animated"]
        for name in names {
            let session = JSONWriter.string(.string(name))
            let cases: [(String, String)] = [
                ("scroll.to", #"{"session":\#(session),"offset":[0,123.456]}"#),
                ("scroll.to", #"{"session":\#(session),"offset":[-3.5,1e-7],"animated":true}"#),
                ("scroll.to", #"{"session":\#(session),"offset":[1.7976931348623157e308,-0.1]}"#),
                ("scroll.to", #"{"session":\#(session),"offset":[0.1,0.2],"animated":false}"#),
                ("clock.advance", #"{"session":\#(session),"ms":16.666666666666668}"#),
                ("clock.advance", #"{"session":\#(session),"ms":5e-324}"#),
                ("batch", #"{"session":\#(session),"ops":[{"op":"insertItems","at":[[0,0]],"items":[{"id":"it's \"q\" '' \\ ü"}]}]}"#),
                ("session.setLayout", #"{"session":\#(session),"layout":{"type":"flow","itemSize":[0.30000000000000004,1e21]}}"#),
            ]
            for (method, params) in cases {
                for form in [RecordedChangeBytes.Form.line, .json] {
                    let (sent, read) = try Self.roundTrip(method, params, session: name, form: form, into: &bytes)
                    #expect(Self.same(sent, read), "\(method) \(params) (\(form)) read back as \(JSONWriter.string(read))")
                }
            }
        }
    }

    @Test func changesAcrossChunksAndLargerThanOneReadBack() throws {
        var bytes = RecordedChangeBytes()
        var kept: [(RecordedChangeBytes.Span, JSONValue)] = []
        let big = String(repeating: "y", count: RecordedChangeBytes.chunkBytes + 100)
        for k in 0..<3000 {
            let id = k == 1500 ? big : "item-\(k)-" + String(repeating: "x", count: k % 700)
            let params = try JSONParser.parse(#"{"session":"m","ops":[{"op":"insertItems","at":[[0,\#(k)]],"items":[{"id":"\#(id)"}]}]}"#,
                                              limits: JournalParser.limits)
            var line = ByteBuffer()
            RecordedScriptLines.change("batch", params: params, session: "m", into: &line)
            kept.append((bytes.append(line, from: 0, form: .line), params))
        }
        #expect(bytes.chunks.count >= 3)
        // No chunk grew past its first room (growing would have copied what it held).
        #expect(bytes.chunks.allSatisfy { $0.count <= max(RecordedChangeBytes.chunkBytes, big.utf8.count + 200) })
        for (span, params) in kept {
            #expect(try bytes.params(span, method: "batch", session: "m") == params)
        }
    }

    @Test func aDamagedLineIsAClearError() throws {
        var bytes = RecordedChangeBytes()
        var line = ByteBuffer()
        line.append("scroll m --to=1\n")
        let span = bytes.append(line, from: 0, form: .line)
        #expect(throws: RecordedChangeError.self) { try bytes.params(span, method: "scroll.to", session: "m") }
        var other = ByteBuffer()
        other.append("rpc batch '{\"session\":\"m\"'\n")
        let broken = bytes.append(other, from: 0, form: .line)
        #expect(throws: RecordedChangeError.self) { try bytes.params(broken, method: "batch", session: "m") }
    }
}
