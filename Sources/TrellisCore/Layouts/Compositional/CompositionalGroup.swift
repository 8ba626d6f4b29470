/// NSCollectionLayoutGroup: items and groups (any depth) placed in a row, a column or at
/// explicit frames; a section repeats its group until its items run out.
public struct CompositionalGroup: Hashable, Sendable {
    public var size: CompositionalSize
    public var arrangement: CompositionalGroupArrangement
    /// Cycled through until the next would pass the group's far edge (ignored by custom groups).
    public var subitems: [CompositionalSubitem]
    /// `subitem:count:`: exactly this many copies of the first subitem, sharing the group's
    /// length (the subitem's own length along the group's axis is ignored).
    public var count: Int?
    /// When set, `count` follows the container's width (`count` holds the narrowest case).
    public var adaptiveCount: CompositionalAdaptiveCount?
    public var interItemSpacing: CompositionalSpacing
    public var contentInsets: EdgeInsets
    public var edgeSpacing: CompositionalEdgeSpacing

    public init(size: CompositionalSize, arrangement: CompositionalGroupArrangement, subitems: [CompositionalSubitem] = [],
                count: Int? = nil, interItemSpacing: CompositionalSpacing = .fixed(0), contentInsets: EdgeInsets = .zero,
                edgeSpacing: CompositionalEdgeSpacing = .none, adaptiveCount: CompositionalAdaptiveCount? = nil) {
        self.size = size; self.arrangement = arrangement; self.subitems = subitems; self.count = count
        self.adaptiveCount = adaptiveCount
        self.interItemSpacing = interItemSpacing; self.contentInsets = contentInsets; self.edgeSpacing = edgeSpacing
    }

    public static func horizontal(_ size: CompositionalSize, _ subitems: [CompositionalSubitem], count: Int? = nil,
                                  spacing: CompositionalSpacing = .fixed(0)) -> CompositionalGroup {
        CompositionalGroup(size: size, arrangement: .horizontal, subitems: subitems, count: count, interItemSpacing: spacing)
    }

    public static func vertical(_ size: CompositionalSize, _ subitems: [CompositionalSubitem], count: Int? = nil,
                                spacing: CompositionalSpacing = .fixed(0)) -> CompositionalGroup {
        CompositionalGroup(size: size, arrangement: .vertical, subitems: subitems, count: count, interItemSpacing: spacing)
    }

    public var transposed: CompositionalGroup {
        CompositionalGroup(size: size.transposed, arrangement: arrangement.transposed, subitems: subitems.map(\.transposed),
                           count: count, interItemSpacing: interItemSpacing, contentInsets: contentInsets.compositionalTransposed,
                           edgeSpacing: edgeSpacing.transposed, adaptiveCount: adaptiveCount)
    }

    /// This group with every adaptive count (its own and its subgroups') fixed for a container
    /// `width` points wide.
    public func resolvingAdaptiveCounts(width: Double) -> CompositionalGroup {
        var g = self
        if let adaptiveCount { g.count = adaptiveCount.count(forWidth: width) }
        g.subitems = subitems.map { s in
            if case .group(let sub) = s { return .group(sub.resolvingAdaptiveCounts(width: width)) }
            return s
        }
        return g
    }
}
