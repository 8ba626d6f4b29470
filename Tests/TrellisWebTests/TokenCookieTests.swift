import Testing
import TrellisProtocol
@testable import TrellisWeb

/// The token's cookie: named by the port, read from any Cookie header among other cookies.
@Suite struct TokenCookieTests {
    @Test func itIsSetHttpOnlyAndStrictAndReadBack() {
        let token = AccessToken("a-test-token-0123456789")!
        #expect(TokenCookie.setCookie(token, port: 8080) == "trellis-web-token-8080=a-test-token-0123456789; Path=/; HttpOnly; SameSite=Strict")
        let name = TokenCookie.name(port: 8080)
        #expect(TokenCookie.values(named: name, in: ["a=1; trellis-web-token-8080=x;b=2", "trellis-web-token-8080 = y"]) == ["x", "y"])
        #expect(TokenCookie.values(named: name, in: ["trellis-web-token-9090=x", "trellis-web-token-8080", "xtrellis-web-token-8080=z"]) == [])
        #expect(TokenCookie.values(named: name, in: []) == [])
    }
}
