import Foundation
import Testing
import TrellisCore
import TrellisProtocol
@testable import TrellisServer

/// A client that pipelines requests without reading its replies (Redis's
/// client-output-buffer-limit normal): it is slowed to its own pace, never served into the
/// server's memory, and cut with a reason past the hard limit; everyone else goes on.
@Suite(.serialized) struct ClientOutputLimitTests {
    typealias T = PersistenceTests

    static func residentKilobytes(_ pid: Int32) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return -1 }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? -1
    }

    /// Sends up to `count` big query.attributes requests without reading, for at most `seconds`
    /// (the server stops reading, so the socket fills); returns how many were sent whole.
    static func pipeline(_ greedy: RPCConnection, count: Int, seconds: Double) -> Int {
        let request = Array(#"{"jsonrpc":"2.0","id":1,"method":"query.attributes","params":{"session":"big","rect":[0,0,400,1000000]}}"#.utf8) + [10]
        _ = fcntl(greedy.fd, F_SETFL, fcntl(greedy.fd, F_GETFL) | O_NONBLOCK)
        defer { _ = fcntl(greedy.fd, F_SETFL, fcntl(greedy.fd, F_GETFL) & ~O_NONBLOCK) }
        let deadline = Date().addingTimeInterval(seconds)
        var sent = 0, offset = 0
        while sent < count, Date() < deadline {
            let n = request.withUnsafeBytes { send(greedy.fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if n > 0 {
                offset += n
                if offset == request.count { sent += 1; offset = 0 }
            } else {
                usleep(1000)
            }
        }
        // Finish a request cut in half so the stream stays framed.
        while offset > 0 {
            let n = request.withUnsafeBytes { send(greedy.fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if n > 0 { offset += n; if offset == request.count { sent += 1; offset = 0 } } else { usleep(1000) }
        }
        return sent
    }

    @Test func aClientThatDoesNotReadItsRepliesIsSlowedNotServedIntoMemory() throws {
        let server = try ServerProcess(arguments: ["--no-persistence", "--client-soft-limit", "262144"])
        let c = try server.connect()
        // 2,000 items: every reply lists them all (about 300 KB).
        try c.must("session.create", ["name": .string("big"), "clock": .string("manual"), "sections": T.items(2000),
                                      "layout": .object(["type": .string("flow"), "itemSize": T.pair(10, 10)])])
        let before = Self.residentKilobytes(server.process.processIdentifier)
        let greedy = try server.connect()
        let sent = Self.pipeline(greedy, count: 200, seconds: 3)
        #expect(sent > 50)
        // Everyone else is served meanwhile, and the server holds about the soft limit for it,
        // not the 60 MB its replies would take.
        #expect(try c.result("hello")["server"] == .string("trellisd"))
        let grown = Self.residentKilobytes(server.process.processIdentifier) - before
        #expect(grown < 30_000, "the server grew by \(grown) KB")
        // It gets every reply, in order, once it reads; nobody was cut.
        var replies = 0
        while replies < sent, let message = greedy.readMessage() {
            #expect(message["result"]?["attributes"]?.arrayValue?.count == 2000)
            replies += 1
        }
        #expect(replies == sent)
        #expect(try c.result("stats")["clientsDisconnected"] == T.n(0))
        server.stop()
    }

    @Test func aClientPastTheHardLimitIsCutWithAReason() throws {
        let server = try ServerProcess(arguments: ["--no-persistence", "--client-soft-limit", "1024", "--client-hard-limit", "4096"])
        let c = try server.connect()
        try c.must("session.create", ["name": .string("big"), "clock": .string("manual"), "sections": T.items(2000),
                                      "layout": .object(["type": .string("flow"), "itemSize": T.pair(10, 10)])])
        let greedy = try server.connect()
        _ = Self.pipeline(greedy, count: 200, seconds: 1)
        let deadline = Date().addingTimeInterval(5)
        while try c.result("stats")["clientsDisconnected"] != T.n(1), Date() < deadline { usleep(20_000) }
        #expect(try c.result("stats")["clientsDisconnected"] == T.n(1))
        #expect(server.stderrText.contains("output over the hard limit"))
        #expect(try c.result("hello")["server"] == .string("trellisd"))
        server.stop()
    }
}
