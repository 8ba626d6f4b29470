#if canImport(Glibc)
import Glibc
#endif
import TrellisProtocol

/// Prepares where the socket lives, as tmux does: a directory of our own with mode 0700
/// (created if missing, refused if another user owns it or others can reach it), and a stale
/// socket file replaced only when nothing answers on it.
public enum SocketDirectory {
    /// Why the socket path cannot be used, in words a person can act on.
    public struct Problem: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// Creates the socket's directory (0700) when missing, then checks it: owned by us, no
    /// group or other bits.
    public static func prepare(forSocket path: String) throws(Problem) {
        let directory = SocketPath.directory(of: path)
        try makeDirectories(directory)
        var info = stat()
        guard stat(directory, &info) == 0 else {
            throw Problem(description: "cannot inspect \(directory): \(String(cString: strerror(errno)))")
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            throw Problem(description: "\(directory) is not a directory; choose another socket with --socket")
        }
        guard info.st_uid == getuid() else {
            throw Problem(description: "\(directory) belongs to uid \(info.st_uid), not to you (uid \(getuid())); choose another socket with --socket")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw Problem(description: "\(directory) has mode \(String(info.st_mode & 0o777, radix: 8)); it must be 700 so no one else can reach the socket (chmod 700 \(directory))")
        }
    }

    /// What is at the socket path now.
    public enum Occupant: Equatable, Sendable {
        case nothing
        /// A socket file nobody listens on (a server that died): safe to remove.
        case staleSocket
        /// A server answers there.
        case liveServer
        /// Something that is not a socket.
        case otherFile
    }

    /// Looks at `path` and, for a socket file, tries to connect to it.
    public static func occupant(of path: String) -> Occupant {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .nothing }
        guard (info.st_mode & S_IFMT) == S_IFSOCK else { return .otherFile }
        return canConnect(to: path) ? .liveServer : .staleSocket
    }

    /// True when a server accepts connections on `path`.
    public static func canConnect(to path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { Glibc.close(fd) }
        guard var address = unixAddress(path) else { return false }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        return result == 0
    }

    /// A sockaddr_un for `path`, or nil when the path does not fit (108 bytes on Linux).
    static func unixAddress(_ path: String) -> sockaddr_un? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return address
    }

    /// The longest socket path the kernel accepts.
    public static var maximumPathLength: Int { MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1 }

    /// mkdir -p with mode 0700 for what it creates.
    private static func makeDirectories(_ directory: String) throws(Problem) {
        var prefix = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
                throw Problem(description: "cannot create \(prefix): \(String(cString: strerror(errno)))")
            }
        }
    }
}
