/// One element of a group as placed once, relative to the group's origin, in flow space (the
/// scroll axis is y): every repetition of the group reuses it, shifted.
struct CompositionalTemplateElement: Hashable, Sendable {
    var kind: ElementKind
    /// Which of the group's cells it is or is anchored to (0 for the group's first cell).
    var leaf: Int
    var frame: Rect
    var zIndex: Int
}

/// A group solved once for its container: its size, its cells (each followed by its
/// supplementary items) and the box they all fit in. Every repetition of the group in every
/// section using the same description shares it, so preparing a section costs nothing per item.
struct CompositionalGroupTemplate: Hashable, Sendable {
    var size: Size
    var elements: [CompositionalTemplateElement] = []
    /// The number of cells (index paths) one repetition takes.
    var leafCount = 0
    /// Every element's frame together with the group's own rect.
    var bounds: Rect

    /// The most slots one group places along its axis (a guard: sizes are checked on input).
    static let slotLimit = 10_000

    /// `group` solved inside `container` (the section's area inside its content insets).
    init(_ group: CompositionalGroup, in container: Size) {
        size = group.size.resolve(in: container)
        bounds = Rect(origin: .zero, size: size)
        place(group, at: Rect(origin: .zero, size: size), depth: 0)
        for e in elements { bounds = bounds.union(e.frame) }
    }

    private mutating func place(_ group: CompositionalGroup, at rect: Rect, depth: Int) {
        guard depth < 64 else { return }
        let inner = rect.inset(by: group.contentInsets)
        switch group.arrangement {
        case .custom(let frames):
            for f in frames {
                let frame = Rect(x: rect.origin.x + f.frame.origin.x, y: rect.origin.y + f.frame.origin.y,
                                 width: f.frame.size.width, height: f.frame.size.height)
                elements.append(CompositionalTemplateElement(kind: .cell, leaf: leafCount, frame: frame, zIndex: f.zIndex))
                leafCount += 1
            }
        case .horizontal, .vertical:
            let row = group.arrangement == .horizontal
            for (child, slot) in Self.slots(of: group, in: inner, row: row) {
                switch child {
                case .item(let item): placeItem(item, in: slot)
                case .group(let g): place(g, at: slot, depth: depth + 1)
                }
            }
        }
    }

    /// A cell: its slot less its content insets (not on estimated axes), then its supplementary items.
    private mutating func placeItem(_ item: CompositionalItem, in slot: Rect) {
        var insets = item.contentInsets
        if item.size.width.isEstimated { insets.left = 0; insets.right = 0 }
        if item.size.height.isEstimated { insets.top = 0; insets.bottom = 0 }
        let frame = slot.inset(by: insets)
        let leaf = leafCount
        elements.append(CompositionalTemplateElement(kind: .cell, leaf: leaf, frame: frame, zIndex: 0))
        for s in item.supplementaryItems {
            let size = s.size.resolve(in: frame.size)
            elements.append(CompositionalTemplateElement(kind: .supplementary(s.kind), leaf: leaf,
                                                         frame: s.anchor.frame(of: size, on: frame), zIndex: s.zIndex))
        }
        leafCount += 1
    }

    /// The subitems of a row (column) group and their slots inside `inner`: cycled through until
    /// the next would pass the far edge (sizes never shrink), or exactly `count` copies sharing the
    /// length; flexible edge spacing, else flexible inter-item spacing, shares what is left.
    static func slots(of group: CompositionalGroup, in inner: Rect, row: Bool) -> [(CompositionalSubitem, Rect)] {
        guard !group.subitems.isEmpty else { return [] }
        // Along = the group's axis, across = the other; in points inside `inner`.
        let alongLength = row ? inner.size.width : inner.size.height
        let acrossLength = row ? inner.size.height : inner.size.width
        let gap = group.interItemSpacing.minimum
        struct Placed { var child: CompositionalSubitem; var along: Double; var across: Double; var lead: CompositionalSpacing?; var trail: CompositionalSpacing?
                        var crossLead: CompositionalSpacing?; var crossTrail: CompositionalSpacing? }
        var placed: [Placed] = []
        func make(_ child: CompositionalSubitem, along forced: Double?) -> Placed {
            let s = child.size.resolve(in: inner.size)
            let e = child.edgeSpacing
            return Placed(child: child, along: forced ?? (row ? s.width : s.height), across: row ? s.height : s.width,
                          lead: row ? e.leading : e.top, trail: row ? e.trailing : e.bottom,
                          crossLead: row ? e.top : e.leading, crossTrail: row ? e.bottom : e.trailing)
        }
        var used = 0.0
        if let n = group.count {
            let share = (alongLength - Double(n - 1) * gap) / Double(Swift.max(1, n))
            for _ in 0..<Swift.max(0, Swift.min(n, slotLimit)) {
                let p = make(group.subitems[0], along: share)
                used += p.along + (p.lead?.minimum ?? 0) + (p.trail?.minimum ?? 0)
                placed.append(p)
            }
            used += Double(Swift.max(0, placed.count - 1)) * gap
        } else {
            var k = 0
            while placed.count < slotLimit {
                let p = make(group.subitems[k % group.subitems.count], along: nil)
                let extent = p.along + (p.lead?.minimum ?? 0) + (p.trail?.minimum ?? 0)
                guard extent > 0 else { break }
                let next = used + (placed.isEmpty ? 0 : gap) + extent
                // A little tolerance: fractions such as thirds do not add up exactly.
                if next > alongLength + 1e-9 * Swift.max(1, Swift.abs(alongLength)) { break }
                used = next
                placed.append(p)
                k += 1
            }
        }
        let leftover = Swift.max(0, alongLength - used)
        let flexibleEdges = placed.reduce(0) { $0 + ($1.lead?.isFlexible == true ? 1 : 0) + ($1.trail?.isFlexible == true ? 1 : 0) }
        let edgeShare = flexibleEdges > 0 ? leftover / Double(flexibleEdges) : 0
        let gapShare = flexibleEdges == 0 && group.interItemSpacing.isFlexible && placed.count > 1 ? leftover / Double(placed.count - 1) : 0
        var result: [(CompositionalSubitem, Rect)] = []
        result.reserveCapacity(placed.count)
        var position = 0.0
        for (i, p) in placed.enumerated() {
            if i > 0 { position += gap + gapShare }
            position += (p.lead?.minimum ?? 0) + (p.lead?.isFlexible == true ? edgeShare : 0)
            // Across: at the leading edge unless a flexible edge takes the room left.
            let fixedAcross = (p.crossLead?.minimum ?? 0) + (p.crossTrail?.minimum ?? 0)
            let free = Swift.max(0, acrossLength - p.across - fixedAcross)
            var across = p.crossLead?.minimum ?? 0
            switch (p.crossLead?.isFlexible == true, p.crossTrail?.isFlexible == true) {
            case (true, true): across += free / 2
            case (true, false): across += free
            default: break
            }
            let slot = row ? Rect(x: inner.origin.x + position, y: inner.origin.y + across, width: p.along, height: p.across)
                : Rect(x: inner.origin.x + across, y: inner.origin.y + position, width: p.across, height: p.along)
            result.append((p.child, slot))
            position += p.along + (p.trail?.minimum ?? 0) + (p.trail?.isFlexible == true ? edgeShare : 0)
        }
        return result
    }
}
