import Foundation
import NIOCore
import Testing
@testable import TrellisWeb

/// Finding who owns the other end of a loopback connection in the kernel's socket tables.
@Suite struct LoopbackPeerTests {
    /// Rows as Linux writes them on a little-endian machine: trellis-web listening on
    /// 127.0.0.1:8080 (uid 0), a client of uid 65534 at port 40000 and trellis-web's end of that
    /// connection; the same client port connected elsewhere by uid 1000; and a closed client
    /// socket in TIME_WAIT (uid 0, inode 0) that a lookup must not take for root.
    static let table = """
          sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
           0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1001 1 0000000000000000 100 0 0 10 0
           1: 0100007F:9C40 0100007F:1F90 01 00000000:00000000 00:00000000 00000000 65534        0 1002 1 0000000000000000 20 4 30 10 -1
           2: 0100007F:1F90 0100007F:9C40 01 00000000:00000000 00:00000000 00000000     0        0 1003 1 0000000000000000 20 4 30 10 -1
           3: 0100007F:9C40 0100007F:1388 01 00000000:00000000 00:00000000 00000000  1000        0 1004 1 0000000000000000 20 4 30 10 -1
           4: 0100007F:9C41 0100007F:1F90 06 00000000:00000000 03:00001770 00000000     0        0 0 3 0000000000000000
        """

    @Test(.enabled(if: 1.littleEndian == 1, "the rows are written as a little-endian kernel writes them"))
    func theClientsRowGivesItsOwner() throws {
        let server = try #require(LoopbackPeer.Endpoint(SocketAddress(ipAddress: "127.0.0.1", port: 8080)))
        func owner(_ port: Int) throws -> uid_t? {
            LoopbackPeer.owner(of: try #require(LoopbackPeer.Endpoint(SocketAddress(ipAddress: "127.0.0.1", port: port))),
                               connectedTo: server, in: Self.table)
        }
        #expect(try owner(40_000) == 65534)
        #expect(try owner(40_001) == nil)
        #expect(try owner(40_002) == nil)
    }

    @Test func addressesReadTheSameFromBothTablesAndFromNIO() throws {
        let v4 = try #require(LoopbackPeer.Endpoint(SocketAddress(ipAddress: "127.0.0.1", port: 8080)))
        let mapped = try #require(LoopbackPeer.Endpoint(SocketAddress(ipAddress: "::ffff:127.0.0.1", port: 8080)))
        #expect(v4 == mapped)
        let v6 = try #require(LoopbackPeer.Endpoint(SocketAddress(ipAddress: "::1", port: 443)))
        #expect(v6.address == Array(repeating: 0, count: 15) + [1])
        #expect(LoopbackPeer.Endpoint(table: "0100007F") == nil)
        #expect(LoopbackPeer.Endpoint(table: "0100007G:1F90") == nil)
    }

    /// A real connection on loopback, both ends in this process: its client socket is found
    /// in the kernel's tables and belongs to this process's uid; once the client closed its
    /// socket, no one owns that end any more (within a moment).
    @Test func aRealConnectionsClientIsThisUser() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(listener >= 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try #require(withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) } } == 0)
        try #require(listen(listener, 1) == 0)
        try #require(withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) } } == 0)
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, length) } } == 0)
        var clientAddress = sockaddr_in()
        var clientLength = socklen_t(MemoryLayout<sockaddr_in>.size)
        try #require(withUnsafeMutablePointer(to: &clientAddress) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(client, $0, &clientLength) } } == 0)
        let accepted = accept(listener, nil, nil)
        defer { close(accepted) }

        let peer = SocketAddress(clientAddress, host: "127.0.0.1")
        let local = SocketAddress(address, host: "127.0.0.1")
        #expect(LoopbackPeer.owner(of: peer, connectedTo: local) == geteuid())
        close(client)
        // The kernel orphans the closed end as close(2) returns, but a busy machine has shown
        // the row a moment longer (a CI run under load): within a bounded wait, no one owns it.
        let deadline = Date().addingTimeInterval(2)
        var owner = LoopbackPeer.owner(of: peer, connectedTo: local)
        while owner != nil && Date() < deadline {
            usleep(10_000)
            owner = LoopbackPeer.owner(of: peer, connectedTo: local)
        }
        #expect(owner == nil)
    }
}
