/// Where the server listens by default: `$TRELLIS_SOCKET`, else
/// `$XDG_RUNTIME_DIR/trellis/default.sock`, else `/tmp/trellis-$UID/default.sock` (as tmux).
public enum SocketPath {
    /// The default socket path for an environment and user id.
    public static func resolve(environment: [String: String], uid: UInt32) -> String {
        if let explicit = environment["TRELLIS_SOCKET"], !explicit.isEmpty { return explicit }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return trimmingTrailingSlash(runtime) + "/trellis/default.sock"
        }
        return "/tmp/trellis-\(uid)/default.sock"
    }

    /// The directory that holds `path` (created 0700 by the server).
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func trimmingTrailingSlash(_ s: String) -> String {
        var s = s
        while s.count > 1, s.hasSuffix("/") { s.removeLast() }
        return s
    }
}
