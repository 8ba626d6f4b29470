import Testing
import TrellisCore
import TrellisProtocol
@testable import TrellisWeb

/// What the bridge lets a page ask of trellisd, decided without a server.
@Suite struct PageRequestTests {
    static func refusal(_ verdict: PageRequest.Verdict) -> JSONValue? {
        guard case .refuse(let text) = verdict else { return nil }
        return try? JSONParser.parse(text)
    }

    @Test func aDrivingRequestIsForwardedForThePagesSessionOnlyWithControl() throws {
        let pan = #"{"jsonrpc":"2.0","id":7,"method":"gesture.pan","params":{"phase":"began","translation":[0,0]}}"#
        guard case .forward(let line) = PageRequest.check(pan, session: "web", control: true) else {
            Issue.record("a pan with --control is forwarded")
            return
        }
        let forwarded = try JSONParser.parse(line)
        #expect(forwarded["params"]?["session"] == .string("web"))
        #expect(forwarded["id"] == .number(7))
        #expect(forwarded["params"]?["phase"] == .string("began"))

        let watching = Self.refusal(PageRequest.check(pan, session: "web", control: false))
        #expect(watching?["id"] == .number(7))
        #expect(watching?["error"]?["code"] == .number(-32004))
        #expect(watching?["error"]?["message"]?.stringValue?.contains("--control") == true)
    }

    @Test func readsAreForwardedWithoutControl() {
        let stats = #"{"jsonrpc":"2.0","id":"s","method":"stats"}"#
        guard case .forward(let line) = PageRequest.check(stats, session: "web", control: false) else {
            Issue.record("stats is forwarded to a page that watches")
            return
        }
        #expect(line.contains(#""session":"web""#))
    }

    /// The timeline's reads go through for a page that only watches, pinned to its session;
    /// naming another session is refused.
    @Test func theTimelinesReadsAreForwardedForThePagesSessionOnly() throws {
        for method in ["recording.info", "session.seek"] {
            let own = #"{"jsonrpc":"2.0","id":2,"method":"\#(method)","params":{"atFrame":3}}"#
            guard case .forward(let line) = PageRequest.check(own, session: "web", control: false) else {
                Issue.record("\(method) is forwarded to a page that watches")
                continue
            }
            let forwarded = try JSONParser.parse(line)
            #expect(forwarded["params"]?["session"] == .string("web"))
            #expect(forwarded["params"]?["atFrame"] == .number(3))
            let other = #"{"jsonrpc":"2.0","id":2,"method":"\#(method)","params":{"session":"else","atFrame":3}}"#
            let refused = Self.refusal(PageRequest.check(other, session: "web", control: true))
            #expect(refused?["error"]?["code"] == .number(-32602), "\(method)")
            #expect(refused?["error"]?["message"]?.stringValue?.contains("attached to 'web'") == true, "\(method)")
        }
    }

    @Test func everythingElseIsRefusedWithTheReason() {
        let cases: [(String, Int, String)] = [
            ("{not json", -32700, "not JSON"),
            ("[1,2]", -32600, "JSON object"),
            (#"{"jsonrpc":"2.0","method":"stats"}"#, -32600, "needs an id"),
            (#"{"jsonrpc":"2.0","id":1,"method":"session.destroy","params":{"session":"web"}}"#, -32601, "does not relay 'session.destroy'"),
            (#"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#, -32601, "does not relay"),
            (#"{"jsonrpc":"2.0","id":1,"method":"stats","params":{"session":"other"}}"#, -32602, "attached to 'web'"),
            (#"{"jsonrpc":"2.0","id":1,"method":"stats","params":[1]}"#, -32602, "expected an object"),
            (#"{"jsonrpc":"2.0","id":1,"method":7}"#, -32600, "expected a string"),
            (#"{"jsonrpc":"2.0","id":{},"method":"stats"}"#, -32600, "needs an id"),
        ]
        for (text, code, words) in cases {
            let reply = Self.refusal(PageRequest.check(text, session: "web", control: true))
            #expect(reply?["error"]?["code"] == .number(Double(code)), "\(text)")
            #expect(reply?["error"]?["message"]?.stringValue?.contains(words) == true, "\(text): \(String(describing: reply))")
        }
        let huge = #"{"jsonrpc":"2.0","id":1,"method":"stats","params":{"x":""# + String(repeating: "a", count: 70_000) + #""}}"#
        #expect(Self.refusal(PageRequest.check(huge, session: "web", control: true))?["error"]?["code"] == .number(-32005))
    }

    @Test func repliesAreToldFromNotificationsByTheirPrefix() {
        #expect(PageRequest.isReply(#"{"jsonrpc":"2.0","id":3,"result":{}}"#))
        #expect(PageRequest.isReply(#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}"#))
        #expect(!PageRequest.isReply(#"{"jsonrpc":"2.0","method":"frame","params":{"seq":1}}"#))
    }

    /// Nothing goes through before the attach; then at most 64 wait for replies, and only
    /// replies (not frames) make room again.
    @Test func theRelayOpensAtTheAttachAndBoundsWhatWaits() {
        let relay = PageRelay(session: "web", control: true)
        let stats = #"{"jsonrpc":"2.0","id":1,"method":"stats"}"#
        #expect(Self.refusal(relay.admit(stats))?["error"]?["code"] == .number(-32008))
        relay.markAttached()
        for _ in 0..<PageRequest.maximumUnanswered {
            guard case .forward = relay.admit(stats) else {
                Issue.record("a request under the limit is forwarded")
                return
            }
        }
        #expect(relay.waiting == 64)
        let refused = Self.refusal(relay.admit(stats))
        #expect(refused?["error"]?["code"] == .number(-32005))
        #expect(refused?["id"] == .number(1))
        relay.received(#"{"jsonrpc":"2.0","method":"frame","params":{"seq":1}}"#)
        #expect(relay.waiting == 64)
        relay.received(#"{"jsonrpc":"2.0","id":1,"result":{}}"#)
        #expect(relay.waiting == 63)
        guard case .forward = relay.admit(stats) else {
            Issue.record("a reply makes room for one more")
            return
        }
        for _ in 0..<100 { relay.received(#"{"jsonrpc":"2.0","id":1,"result":{}}"#) }
        #expect(relay.waiting == 0)
    }
}

/// The access token.
@Suite struct AccessTokenTests {
    @Test func onlyLongURLSafeTokensAreTaken() {
        #expect(AccessToken("short") == nil)
        #expect(AccessToken(String(repeating: "a", count: 15)) == nil)
        #expect(AccessToken(String(repeating: "a", count: 257)) == nil)
        #expect(AccessToken("abcdefgh ijklmnop") == nil)
        #expect(AccessToken("abcdefgh&ijklmnop") == nil)
        #expect(AccessToken("Abc-def_ghi.jkl~mnop") != nil)
    }

    @Test func theTokenMatchesItselfAndNothingElse() {
        let token = AccessToken.random()
        #expect(token.value.count == 32)
        #expect(token.value.allSatisfy { $0.isHexDigit })
        #expect(token != AccessToken.random())
        #expect(token.matches(token.value))
        #expect(!token.matches(nil))
        #expect(!token.matches(""))
        #expect(!token.matches(String(token.value.dropLast())))
        #expect(!token.matches(token.value + "0"))
        #expect(!token.matches(String(token.value.dropLast()) + (token.value.last == "0" ? "1" : "0")))
    }
}
