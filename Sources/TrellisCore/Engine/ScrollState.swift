/// UIScrollView's geometry for one collection view: the visible size, the content offset (the
/// visible rectangle's origin in content coordinates), the content inset and the content size.
public struct ScrollState: Hashable, Sendable {
    public var boundsSize: Size
    public var contentOffset: Point
    public var contentInset: EdgeInsets
    public var contentSize: Size

    public init(boundsSize: Size, contentOffset: Point = .zero, contentInset: EdgeInsets = .zero, contentSize: Size = .zero) {
        self.boundsSize = boundsSize
        self.contentOffset = contentOffset
        self.contentInset = contentInset
        self.contentSize = contentSize
    }

    /// The visible rectangle in content coordinates.
    @inlinable public var visibleBounds: Rect { Rect(origin: contentOffset, size: boundsSize) }

    /// The smallest offset at rest: the content's top-left showing below the insets. (0 − inset,
    /// not −inset: a zero inset must give 0, not −0, which a reply would print as `-0`.)
    public var minimumContentOffset: Point { Point(x: 0 - contentInset.left, y: 0 - contentInset.top) }

    /// The largest offset at rest: the content's bottom-right showing above the insets (never
    /// below the minimum, so short content rests at the top).
    public var maximumContentOffset: Point {
        let minimum = minimumContentOffset
        return Point(x: max(minimum.x, contentSize.width + contentInset.right - boundsSize.width),
                     y: max(minimum.y, contentSize.height + contentInset.bottom - boundsSize.height))
    }

    /// `offset` moved into the range a scroll view rests in.
    public func clamped(_ offset: Point) -> Point {
        let lo = minimumContentOffset, hi = maximumContentOffset
        return Point(x: min(max(offset.x, lo.x), hi.x), y: min(max(offset.y, lo.y), hi.y))
    }

    /// The offset that shows `frame` at `position` (UIKit's scrollToItem geometry, measured inside
    /// the content inset), clamped to the content. An axis with no choice keeps its offset.
    public func offset(showing frame: Rect, at position: ScrollPosition) -> Point {
        var target = contentOffset
        let visibleHeight = boundsSize.height - contentInset.vertical
        let visibleWidth = boundsSize.width - contentInset.horizontal
        if position.contains(.top) {
            target.y = frame.minY - contentInset.top
        } else if position.contains(.centeredVertically) {
            target.y = frame.midY - visibleHeight / 2 - contentInset.top
        } else if position.contains(.bottom) {
            target.y = frame.maxY - visibleHeight - contentInset.top
        }
        if position.contains(.left) {
            target.x = frame.minX - contentInset.left
        } else if position.contains(.centeredHorizontally) {
            target.x = frame.midX - visibleWidth / 2 - contentInset.left
        } else if position.contains(.right) {
            target.x = frame.maxX - visibleWidth - contentInset.left
        }
        return clamped(target)
    }
}
