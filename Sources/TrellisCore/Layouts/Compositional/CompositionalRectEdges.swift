/// NSDirectionalRectEdge: a set of edges (raw values as UIKit's: top 1, leading 2, bottom 4, trailing 8).
public struct CompositionalRectEdges: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let top = CompositionalRectEdges(rawValue: 1)
    public static let leading = CompositionalRectEdges(rawValue: 2)
    public static let bottom = CompositionalRectEdges(rawValue: 4)
    public static let trailing = CompositionalRectEdges(rawValue: 8)

    /// The protocol's names, in raw-value order.
    public static let names: [(String, CompositionalRectEdges)] = [("top", .top), ("leading", .leading), ("bottom", .bottom), ("trailing", .trailing)]

    /// Where an element sits along x and y between a host's edges: 0 at the leading/top edge,
    /// 1 at the trailing/bottom, ½ when neither or both are named.
    @inlinable public var anchor: (x: Double, y: Double) {
        func along(_ low: CompositionalRectEdges, _ high: CompositionalRectEdges) -> Double {
            let l = contains(low), h = contains(high)
            return l == h ? 0.5 : (l ? 0 : 1)
        }
        return (along(.leading, .trailing), along(.top, .bottom))
    }

    @inlinable public var transposed: CompositionalRectEdges {
        var e: CompositionalRectEdges = []
        if contains(.top) { e.insert(.leading) }
        if contains(.leading) { e.insert(.top) }
        if contains(.bottom) { e.insert(.trailing) }
        if contains(.trailing) { e.insert(.bottom) }
        return e
    }
}
