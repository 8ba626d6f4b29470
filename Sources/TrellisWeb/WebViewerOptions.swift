import TrellisProtocol
/// Where the browser viewer listens, which trellisd it bridges to, and what pages may do.
public struct WebViewerOptions: Sendable {
    /// trellisd's Unix socket: every WebSocket opens its own connection to it.
    public var socketPath: String
    /// The session a page shows when its URL names none (`/?session=NAME` names one).
    public var defaultSession: String?
    /// The address to bind: loopback by default; `.sameUser` access only there.
    public var host: String
    /// The TCP port; 0 asks the kernel for a free one (tests), reported by `onListening`.
    public var port: Int
    /// `--control`: pages attach read-write and may drive the session (gestures, toolbar).
    public var control: Bool
    /// Who may use it: the token every request carries, or (on loopback) the same user.
    public var access: WebAccess

    public init(
        socketPath: String, defaultSession: String? = nil, host: String = "127.0.0.1", port: Int = 8080,
        control: Bool = false, access: WebAccess
    ) {
        self.socketPath = socketPath
        self.defaultSession = defaultSession
        self.host = host
        self.port = port
        self.control = control
        self.access = access
    }
}
