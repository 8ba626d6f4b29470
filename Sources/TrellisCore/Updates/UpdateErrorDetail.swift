/// One value named in an `UpdateError`'s details: a number, an index path, or identifiers.
/// Typed so the engine holds no wire values; the protocol encodes each as JSON.
public enum UpdateErrorDetail: Hashable, Sendable {
    /// A count, section or item index.
    case int(Int)
    /// An index path (on the wire: `{"section": s, "item": i}`).
    case indexPath(IndexPath)
    /// A name, e.g. the operation or an identifier.
    case string(String)
    /// A list of names, e.g. duplicated identifiers.
    case strings([String])
}
