/// The opaque payload an item (or a free body) carries for viewers to render.
///
/// The engine never interprets it beyond comparing it for changes, so it holds bytes only: the
/// protocol fills them with the payload's canonical JSON text (compact, object keys sorted), in
/// which equal values have equal bytes, and frames append them as they are.
public struct ItemPayload: Hashable, Sendable {
    /// The payload's encoded bytes, as the protocol wrote them: a slice, so that an item read
    /// from its chunk shares the chunk's packed payload buffer instead of copying its bytes.
    public let bytes: ArraySlice<UInt8>

    /// A payload of `bytes`, already in the protocol's canonical form.
    public init(bytes: [UInt8]) {
        self.bytes = bytes[...]
    }

    /// A payload of `bytes` (a slice of a larger buffer), already in canonical form.
    public init(bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
    }
}
