/// Where the browser viewer listens and which trellisd it bridges to.
public struct WebViewerOptions: Sendable {
    /// trellisd's Unix socket: every WebSocket opens its own connection to it.
    public var socketPath: String
    /// The session a page shows when its URL names none (`/?session=NAME` names one).
    public var defaultSession: String?
    /// The address to bind: loopback by default, since nothing authenticates a browser yet.
    public var host: String
    /// The TCP port; 0 asks the kernel for a free one (tests), reported by `onListening`.
    public var port: Int

    public init(socketPath: String, defaultSession: String? = nil, host: String = "127.0.0.1", port: Int = 8080) {
        self.socketPath = socketPath
        self.defaultSession = defaultSession
        self.host = host
        self.port = port
    }
}
