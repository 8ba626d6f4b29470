/// The coordinates a flow is computed in: as if it scrolled vertically (x across the rows, y along the
/// scroll axis). A horizontal flow is the same computation transposed, so one code path serves both
/// directions; `map` converts either way (transposing twice is the identity).
struct FlowSpace: Hashable, Sendable {
    var isHorizontal: Bool

    init(_ direction: FlowLayout.ScrollDirection) { isHorizontal = direction == .horizontal }

    @inline(__always) func map(_ r: Rect) -> Rect {
        isHorizontal ? Rect(x: r.origin.y, y: r.origin.x, width: r.size.height, height: r.size.width) : r
    }

    @inline(__always) func map(_ s: Size) -> Size {
        isHorizontal ? Size(width: s.height, height: s.width) : s
    }

    @inline(__always) func map(_ p: Point) -> Point {
        isHorizontal ? Point(x: p.y, y: p.x) : p
    }

    /// Transposing swaps top with left and bottom with right.
    @inline(__always) func map(_ e: EdgeInsets) -> EdgeInsets {
        isHorizontal ? EdgeInsets(top: e.left, left: e.top, bottom: e.right, right: e.bottom) : e
    }
}
