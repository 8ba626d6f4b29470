#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import NIOCore

/// Which user owns the other end of a loopback TCP connection. The kernel lists every TCP
/// socket of this network namespace, with the uid that made it, in /proc/net/tcp and
/// /proc/net/tcp6; on loopback the client's socket is one of them: the row whose local address
/// is the connection's peer and whose remote address is the port the client reached (both
/// ends, since a client port may serve other connections too). What getsockopt(SO_PEERCRED)
/// tells of a Unix socket, which TCP does not tell.
enum LoopbackPeer {
    /// The kernel's tables of IPv4 and IPv6 TCP sockets.
    static let tables = ["/proc/net/tcp", "/proc/net/tcp6"]

    /// One end of a connection as the tables write it: 16 address bytes (IPv4 as an
    /// IPv4-mapped IPv6 address, so both tables compare alike) and the port.
    struct Endpoint: Equatable, Sendable {
        var address: [UInt8]
        var port: Int

        init(address: [UInt8], port: Int) {
            self.address = address.count == 4 ? Array(repeating: 0, count: 10) + [0xff, 0xff] + address : address
            self.port = port
        }

        /// The address NIO reports; nil for a Unix socket.
        init?(_ socketAddress: SocketAddress) {
            guard let port = socketAddress.port else { return nil }
            switch socketAddress {
            case .v4(let v4): self.init(address: withUnsafeBytes(of: v4.address.sin_addr) { Array($0) }, port: port)
            case .v6(let v6): self.init(address: withUnsafeBytes(of: v6.address.sin6_addr) { Array($0) }, port: port)
            case .unixDomainSocket: return nil
            }
        }

        /// `0100007F:1F90` (IPv4) or 32 hex digits then `:PORT` (IPv6): the kernel prints the
        /// address as 32-bit words in the machine's byte order, each of which, read back as a
        /// number and laid out in memory, gives the address's bytes again.
        init?(table field: Substring) {
            let parts = field.split(separator: ":")
            guard parts.count == 2, parts[0].count == 8 || parts[0].count == 32, let port = Int(parts[1], radix: 16) else { return nil }
            var bytes: [UInt8] = []
            var rest = parts[0]
            while !rest.isEmpty {
                guard let word = UInt32(rest.prefix(8), radix: 16) else { return nil }
                withUnsafeBytes(of: word) { bytes += $0 }
                rest = rest.dropFirst(8)
            }
            self.init(address: bytes, port: port)
        }
    }

    /// The uid owning the socket at `peer` connected to `local`; nil when no table has it.
    static func owner(of peer: SocketAddress, connectedTo local: SocketAddress) -> uid_t? {
        guard let peer = Endpoint(peer), let local = Endpoint(local) else { return nil }
        for table in tables {
            guard let text = contents(of: table) else { continue }
            if let uid = owner(of: peer, connectedTo: local, in: text) { return uid }
        }
        return nil
    }

    /// The uid in the row of `table` (the text of one of the tables) whose local address is
    /// `peer` and remote address `local`. A row with inode 0 is a socket no process holds any
    /// more (closed, or in TIME_WAIT, whose uid reads 0): it is not an owner, so a client
    /// cannot be taken for root by closing its end before the lookup.
    static func owner(of peer: Endpoint, connectedTo local: Endpoint, in table: String) -> uid_t? {
        for line in table.split(separator: "\n").dropFirst() {
            // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode …
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 10, Endpoint(table: fields[1]) == peer, Endpoint(table: fields[2]) == local,
                  fields[9] != "0", let uid = uid_t(fields[7]) else { continue }
            return uid
        }
        return nil
    }

    /// A /proc file's text (its size reads 0, so it is read to its end); nil when unreadable.
    static func contents(of path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
