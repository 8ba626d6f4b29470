import Foundation
import Testing
import TrellisTestSupport
import TrellisCore
import TrellisProtocol

/// Issue 24, item 4: trellisd serves only its own uid, and the browser viewer that bridges it
/// must not be weaker. Another local user (`nobody`, through runuser) asks trellis-web for the
/// page, the session list and a WebSocket that deletes an item; trellis-web refuses each, by
/// its token (the default) or by the peer socket's uid (`--no-token`), and the session stays as
/// it was. The same requests from the test's own user, with the token, go through.
@Suite(.enabled(if: LocalClient.canActAsOtherUser,
                "acting as another local user needs root, runuser and /usr/bin/python3: the nobody tests are skipped"))
struct OtherUserTests {
    /// The request a page with `--control` would send to delete the first item.
    static let deleteFirst = #"{"jsonrpc":"2.0","id":2,"method":"batch","params":{"animated":false,"ops":[{"op":"deleteItems","at":[[0,0]]}]}}"#

    static func items(_ trellisd: TrellisdProcess, _ session: String) throws -> Double? {
        try trellisd.client().call("session.info", ["session": .string(session)])["items"]?.numberValue
    }

    /// GET /, GET /sessions and the WebSocket with a batch, as `nobody` (without the token,
    /// which only the user who started trellis-web saw), then as the test's own user with
    /// `path`'s token added by `authorized`.
    struct Round: Sendable {
        var page: LocalClient.Reply
        var list: LocalClient.Reply
        var socket: LocalClient.Reply
    }

    static func round(port: Int, asOtherUser: Bool, _ authorized: (String) -> String) async throws -> Round {
        try await Round(
            page: LocalClient.run(port: port, path: authorized("/"), asOtherUser: asOtherUser),
            list: LocalClient.run(port: port, path: authorized("/sessions"), asOtherUser: asOtherUser),
            socket: LocalClient.run(port: port, path: authorized("/ws?session=shared"), upgrade: true,
                                    requests: [deleteFirst], asOtherUser: asOtherUser))
    }

    @Test func anotherUserIsRefusedWithoutTheToken() async throws {
        let trellisd = try TrellisdProcess()
        defer { trellisd.stop() }
        try WebControlTests.makeSession(trellisd, name: "shared")
        let viewer = try await RunningWebViewer.start(socketPath: trellisd.socketPath, control: true)
        let rounds = await outcome {
            let other = try await Self.round(port: viewer.port, asOtherUser: true) { $0 }
            let itemsAfterOther = try Self.items(trellisd, "shared")
            let own = try await Self.round(port: viewer.port, asOtherUser: false) { viewer.authorized($0) }
            return (other, itemsAfterOther, own, try Self.items(trellisd, "shared"))
        }
        await viewer.stop()
        let (other, itemsAfterOther, own, itemsAfterOwn) = try rounds.get()

        #expect(viewer.token != nil, "trellis-web printed no token")
        #expect(other.page.status == 403, "\(other.page.head)")
        #expect(other.page.body.contains("token"), "\(other.page.body)")
        #expect(other.list.status == 403, "\(other.list.head)")
        #expect(!other.list.body.contains("shared"))
        #expect(other.socket.status == 403, "\(other.socket.head)")
        #expect(other.socket.messages.isEmpty)
        #expect(itemsAfterOther == 30)

        #expect(own.page.status == 200, "\(own.page.head)")
        #expect(own.list.status == 200 && own.list.body.contains("shared"), "\(own.list.head)")
        #expect(own.socket.status == 101, "\(own.socket.head) \(own.socket.body)")
        #expect(own.socket.messages.last?["result"]?["deleted"] == .array([.array([0, 0].map(JSONValue.number))]),
                "\(own.socket.messages.last ?? .null)")
        #expect(itemsAfterOwn == 29)
    }

    /// `--no-token`: no token, but only sockets of trellis-web's own uid (found in /proc/net/tcp)
    /// are served, as trellisd's socket serves only its own.
    @Test func withNoTokenAnotherUsersSocketIsRefused() async throws {
        let trellisd = try TrellisdProcess()
        defer { trellisd.stop() }
        try WebControlTests.makeSession(trellisd, name: "shared")
        let viewer = try await RunningWebViewer.start(socketPath: trellisd.socketPath, control: true, noToken: true)
        let rounds = await outcome {
            let other = try await Self.round(port: viewer.port, asOtherUser: true) { $0 }
            let itemsAfterOther = try Self.items(trellisd, "shared")
            let own = try await Self.round(port: viewer.port, asOtherUser: false) { $0 }
            return (other, itemsAfterOther, own, try Self.items(trellisd, "shared"))
        }
        await viewer.stop()
        let (other, itemsAfterOther, own, itemsAfterOwn) = try rounds.get()

        #expect(viewer.token == nil)
        #expect(other.page.status == 403, "\(other.page.head)")
        #expect(other.page.body.contains("uid 65534"), "\(other.page.body)")
        #expect(other.page.body.contains("--no-token"), "\(other.page.body)")
        #expect(other.list.status == 403, "\(other.list.head)")
        #expect(other.socket.status == 403, "\(other.socket.head)")
        #expect(other.socket.messages.isEmpty)
        #expect(itemsAfterOther == 30)

        #expect(own.page.status == 200, "\(own.page.head) \(own.page.body)")
        #expect(own.list.status == 200, "\(own.list.head) \(own.list.body)")
        #expect(own.socket.status == 101, "\(own.socket.head) \(own.socket.body)")
        #expect(itemsAfterOwn == 29)
    }
}
