import TrellisProtocol

/// The cookie that keeps trellis-web's token once a URL carried it, as Jupyter keeps its own:
/// a reload, a bookmark without the query and the session list's links then work. Browsers keep
/// cookies per host, not per port, so the name carries the port: two bridges on one machine do
/// not overwrite each other's.
enum TokenCookie {
    /// `trellis-web-token-PORT`, PORT being the one trellis-web listens on.
    static func name(port: Int?) -> String { "trellis-web-token-\(port ?? 0)" }

    /// The `Set-Cookie` value: HttpOnly (no script reads it), SameSite=Strict (no other site's
    /// page makes the browser send it), for every path, until the browser closes.
    static func setCookie(_ token: AccessToken, port: Int?) -> String {
        "\(name(port: port))=\(token.value); Path=/; HttpOnly; SameSite=Strict"
    }

    /// The values of the cookies called `name` in these `Cookie` header values.
    static func values(named name: String, in headers: [String]) -> [String] {
        headers.flatMap { $0.split(separator: ";") }.compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0].trimmingWhitespace == name else { return nil }
            return String(parts[1].trimmingWhitespace)
        }
    }
}

private extension Substring {
    /// Without the spaces and tabs around it (`Cookie: a=1; b=2` separates pairs with "; ").
    var trimmingWhitespace: Substring {
        var trimmed = self
        while trimmed.first == " " || trimmed.first == "\t" { trimmed = trimmed.dropFirst() }
        while trimmed.last == " " || trimmed.last == "\t" { trimmed = trimmed.dropLast() }
        return trimmed
    }
}
