import Foundation
import Testing
import TrellisCore
import TrellisProtocol
@testable import TrellisServer

/// A client that goes mid-drag (killed, its tab closed) leaves no finger down: the server
/// cancels the pan it began, journaled like any request, so the session does not stay dragging.
@Suite struct PanOwnerTests {
    typealias T = PersistenceTests

    @Test func aPanWhoseConnectionClosesIsCancelledWhereTheFingerWas() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let c = try server.connect(), watcher = try server.connect()
        try c.must("session.create", ["name": .string("p"), "clock": .string("manual"), "layout": T.flow(100), "sections": T.items(60)])
        try c.must("gesture.pan", ["session": .string("p"), "phase": .string("began"), "translation": T.pair(0, 0)])
        try c.must("gesture.pan", ["session": .string("p"), "phase": .string("changed"), "translation": T.pair(0, -150)])
        let dragging = try watcher.result("session.info", ["session": .string("p")])
        #expect(dragging["scroll"]?["dragging"] == .bool(true))
        let offset = dragging["scroll"]?["contentOffset"]
        c.close()
        var info = JSONValue.null
        for _ in 0..<50 {
            info = try watcher.result("session.info", ["session": .string("p")])
            if info["scroll"]?["dragging"] == .bool(false) { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(info["scroll"]?["dragging"] == .bool(false))
        #expect(info["scroll"]?["tracking"] == .bool(false))
        #expect(info["scroll"]?["decelerating"] == .bool(false))
        #expect(info["scroll"]?["contentOffset"] == offset)
        // Journaled: a restart finds the session at rest too.
        server.crash()
        let again = try ServerProcess(directory: server.scratch)
        defer { again.stop() }
        let d = try again.connect()
        let restored = try d.result("session.info", ["session": .string("p")])
        #expect(restored["scroll"]?["dragging"] == .bool(false))
        #expect(restored["scroll"]?["contentOffset"] == offset)
    }
}
