import Foundation
import Hummingbird
import NIOCore
import Testing
import TrellisProtocol
@testable import TrellisWeb

/// The access decision on its own, with the peer's owner given: every refusal and its reason.
@Suite struct AccessPolicyTests {
    static let token = AccessToken("a-test-token-0123456789")!
    static let peer = try! SocketAddress(ipAddress: "127.0.0.1", port: 40_000)
    static let local = try! SocketAddress(ipAddress: "127.0.0.1", port: 8080)

    static func request(
        hosts: [String] = ["127.0.0.1:8080"], origin: String? = nil, query: String? = nil, cookies: [String] = []
    ) -> AccessRequest {
        AccessRequest(hosts: hosts, origin: origin, queryToken: query, cookieTokens: cookies, peer: peer, local: local)
    }

    static func byToken(_ request: AccessRequest) -> AccessPolicy.Refusal? {
        AccessPolicy.refusal(of: request, access: .token(token), ownUID: 1000, peerOwner: { _, _ in 1000 })
    }

    static func bySameUser(_ request: AccessRequest, owner: uid_t?) -> AccessPolicy.Refusal? {
        AccessPolicy.refusal(of: request, access: .sameUser, ownUID: 1000, peerOwner: { _, _ in owner })
    }

    @Test func theTokenOpensInTheURLOrTheCookie() {
        #expect(Self.byToken(Self.request(query: Self.token.value)) == nil)
        #expect(Self.byToken(Self.request(cookies: ["stale-token-from-before", Self.token.value])) == nil)
        // Any Host, with the token: it may be reached by name off loopback.
        #expect(Self.byToken(Self.request(hosts: ["trellis.example:8080"], query: Self.token.value)) == nil)
        let none = Self.byToken(Self.request())
        #expect(none?.status == .forbidden)
        #expect(none?.message.contains("needs its token") == true)
        let wrong = Self.byToken(Self.request(query: "a-test-token-0123456788", cookies: ["x"]))
        #expect(wrong?.status == .forbidden)
        #expect(wrong?.message.contains("does not match") == true)
    }

    @Test func oneHostAndTheServersOwnOrigin() {
        let two = Self.byToken(Self.request(hosts: ["127.0.0.1:8080", "rebound.example"], query: Self.token.value))
        #expect(two?.status == .badRequest)
        #expect(two?.message.contains("2 Host headers") == true)
        let foreign = Self.byToken(Self.request(origin: "http://elsewhere.example", query: Self.token.value))
        #expect(foreign?.status == .forbidden)
        #expect(foreign?.message.contains("Origin 'http://elsewhere.example'") == true)
        #expect(Self.byToken(Self.request(origin: "http://127.0.0.1:8080", query: Self.token.value)) == nil)
        #expect(Self.bySameUser(Self.request(hosts: ["127.0.0.1:8080", "127.0.0.1:8080"]), owner: 1000)?.status == .badRequest)
    }

    @Test func withoutATokenTheSocketsOwnerDecides() {
        #expect(Self.bySameUser(Self.request(), owner: 1000) == nil)
        #expect(Self.bySameUser(Self.request(), owner: 0) == nil)
        let other = Self.bySameUser(Self.request(), owner: 65534)
        #expect(other?.status == .forbidden)
        #expect(other?.message.contains("uid 65534") == true && other?.message.contains("uid 1000") == true)
        let unknown = Self.bySameUser(Self.request(), owner: nil)
        #expect(unknown?.status == .forbidden)
        #expect(unknown?.message.contains("/proc/net/tcp") == true)
        // A rebinding name is refused before anyone's socket is looked up.
        let rebound = Self.bySameUser(Self.request(hosts: ["rebound.example:8080"]), owner: 1000)
        #expect(rebound?.message.contains("not this machine's loopback name") == true)
        #expect(Self.bySameUser(Self.request(hosts: []), owner: 1000)?.status == .forbidden)
        // A token given anyway changes nothing without one.
        #expect(Self.bySameUser(Self.request(query: Self.token.value), owner: 65534)?.status == .forbidden)
    }
}
