/// When trellis-web's `--no-token` may be used: without `--token`, and on loopback only, where
/// the user behind a connection can be found (/proc/net/tcp). Here so that `trellis web` checks
/// it before it changes anything, as it checks a token.
public enum NoTokenRule {
    /// The `--bind` addresses only this machine reaches.
    public static let loopback: Set<String> = ["127.0.0.1", "::1", "localhost"]

    /// Why `--no-token` cannot go with a token from `tokenSource` (`--token` or the environment
    /// variable; nil for none) and this `--bind`; nil when it can.
    public static func refusal(tokenSource: String?, bind: String) -> String? {
        if let tokenSource {
            let given = tokenSource.hasPrefix("-") ? "leave out \(tokenSource)" : "unset \(tokenSource)"
            return "--no-token serves without a token: \(given), or leave out --no-token"
        }
        guard loopback.contains(bind) else {
            return "--no-token works on loopback only (--bind 127.0.0.1, ::1 or localhost), where the user behind a "
                + "connection can be found; on '\(bind)' every request needs the token: leave out --no-token"
        }
        return nil
    }
}
