/// NSCollectionLayoutAnchor: which edges of its host a supplementary item sits against, and an
/// offset in points (absolute) or in the supplementary's own size (fractional).
public struct CompositionalAnchor: Hashable, Sendable {
    /// No edges: centred on the host.
    public var edges: CompositionalRectEdges
    public var offset: Point
    /// The offset is a fraction of the supplementary's own size (UIKit's fractionalOffset).
    public var isFractionalOffset: Bool

    public init(edges: CompositionalRectEdges, offset: Point = .zero, isFractionalOffset: Bool = false) {
        self.edges = edges; self.offset = offset; self.isFractionalOffset = isFractionalOffset
    }

    /// The frame of a supplementary of `size` on `host`: inside the host, flush with the named
    /// edges, then moved by the offset (origin = hostMin + anchor·(host − size) + offset).
    @inlinable public func frame(of size: Size, on host: Rect) -> Rect {
        let a = edges.anchor
        let dx = isFractionalOffset ? offset.x * size.width : offset.x
        let dy = isFractionalOffset ? offset.y * size.height : offset.y
        return Rect(x: host.origin.x + a.x * (host.size.width - size.width) + dx,
                    y: host.origin.y + a.y * (host.size.height - size.height) + dy,
                    width: size.width, height: size.height)
    }

    @inlinable public var transposed: CompositionalAnchor {
        CompositionalAnchor(edges: edges.transposed, offset: Point(x: offset.y, y: offset.x), isFractionalOffset: isFractionalOffset)
    }
}
