import TrellisProtocol

/// How trellis-web tells who may use it: a secret every request carries (the default), or, on
/// loopback, the uid that owns the connecting socket (`--no-token`).
public enum WebAccess: Sendable, Equatable {
    /// Every request carries the token, as `?token=…` or in the cookie a request with it set.
    case token(AccessToken)
    /// No token: a connection is served when its socket belongs to trellis-web's own uid (or
    /// root), as trellisd's socket serves only its own uid; the `Host` must name loopback.
    case sameUser
}
