#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Apple's CircleLayout sample (WWDC 2012 "seed 002"): every item on one circle around the
/// view's centre, radius min(width, height) / 2.5, item 0 at three o'clock going clockwise;
/// inserted items grow out of the centre from alpha 0, deleted ones shrink into it (scale 0.1,
/// alpha 0). Items of all sections share the circle in order. The content is the view itself.
public struct CircleLayout: RegisteredLayout {
    /// The sample's ITEM_SIZE is 70.
    public var itemSize: Size
    /// Nil: min(width, height) / 2.5, as the sample.
    public var radius: Double?

    private var boundsSize = Size.zero
    private var sectionStarts: [Int] = []
    private var itemSizes: [Size?] = []
    private var total = 0
    /// The largest item, so a rect query knows how far from the circle an item can reach.
    private var largestItem = Size.zero

    public init(itemSize: Size = Size(70, 70), radius: Double? = nil) {
        self.itemSize = itemSize
        self.radius = radius
    }

    public init() { self.init(itemSize: Size(70, 70)) }

    public static var typeName: String { "circle" }

    /// The sample's ITEM_SIZE and radius.
    public static var parameters: [LayoutParameter<CircleLayout>] {
        [
            .size("itemSize", \.itemSize, positive: true, "Every item's size unless it has its own (the sample's 70×70)."),
            .number("radius", \.radius, 0...layoutLengthLimit, "The circle's radius; unset: min(width, height) / 2.5, as the sample."),
        ]
    }

    public mutating func prepare(_ context: LayoutContext, invalidation: LayoutInvalidation) {
        boundsSize = context.boundsSize
        guard invalidation.everything || !invalidation.sections.isEmpty || sectionStarts.count != context.data.numberOfSections else {
            return
        }
        sectionStarts.removeAll(keepingCapacity: true)
        itemSizes.removeAll(keepingCapacity: true)
        total = 0
        for section in context.data.sections {
            sectionStarts.append(total)
            total += section.count
            // Only sized items need remembering; uniform sections stay O(1) per section.
            if !section.hasUniformItems || !itemSizes.isEmpty {
                if itemSizes.count < total - section.count { itemSizes += Array(repeating: nil, count: total - section.count - itemSizes.count) }
                itemSizes += section.items.map(\.size)
            }
        }
        largestItem = itemSize
        for case let size? in itemSizes {
            largestItem = Size(width: Swift.max(largestItem.width, size.width), height: Swift.max(largestItem.height, size.height))
        }
    }

    public var contentSize: Size { boundsSize }

    /// The circle's centre and radius in the current bounds.
    public var centre: Point { Point(x: boundsSize.width / 2, y: boundsSize.height / 2) }
    public var effectiveRadius: Double { radius ?? min(boundsSize.width, boundsSize.height) / 2.5 }

    public func attributes(in rect: Rect) -> [LayoutAttributes] { attributes(in: rect, after: nil, limit: .max) }

    /// Only the items whose centres lie on the circle's arcs inside `rect` grown by the largest
    /// item's half size are visited (a rect that meets nothing costs nothing, not a walk of every
    /// item); a page starts at the item after `after`, found by its index, and stops at `limit`.
    public func attributes(in rect: Rect, after: ElementID?, limit: Int) -> [LayoutAttributes] {
        var result: [LayoutAttributes] = []
        guard limit > 0, total > 0 else { return result }
        var first = 0
        if let after {
            guard after.isCell, after.indexPath.section >= 0, after.indexPath.section < sectionStarts.count else { return result }
            let section = after.indexPath.section
            let end = section + 1 < sectionStarts.count ? sectionStarts[section + 1] : total
            first = Swift.min(end, sectionStarts[section] + Swift.max(0, after.indexPath.item + 1))
        }
        let reach = Rect(x: rect.minX - largestItem.width / 2, y: rect.minY - largestItem.height / 2,
                         width: rect.width + largestItem.width, height: rect.height + largestItem.height)
        for globals in candidateRanges(CircleArcs.inside(reach, centre: centre, radius: effectiveRadius)) {
            let from = Swift.max(first, globals.lowerBound)
            guard from <= globals.upperBound else { continue }
            var section = sectionIndex(ofGlobal: from)
            for global in from...globals.upperBound {
                while section + 1 < sectionStarts.count, sectionStarts[section + 1] <= global { section += 1 }
                let a = cellAttributes(section: section, item: global - sectionStarts[section], global: global)
                if a.frame.intersects(rect) {
                    result.append(a)
                    if result.count == limit { return result }
                }
            }
        }
        return result
    }

    /// The global item indices whose angles fall in `arcs`, padded by one on each side for the
    /// rounding of the arcs' ends, merged and in increasing order.
    private func candidateRanges(_ arcs: [ClosedRange<Double>]) -> [ClosedRange<Int>] {
        let perRadian = Double(total) / (2 * Double.pi)
        var ranges: [ClosedRange<Int>] = []
        for arc in arcs {
            let lo = Swift.max(0, Int((arc.lowerBound * perRadian).rounded(.down)) - 1)
            let hi = Swift.min(total - 1, Int((arc.upperBound * perRadian).rounded(.up)) + 1)
            guard lo <= hi else { continue }
            if let last = ranges.last, last.upperBound + 1 >= lo {
                ranges[ranges.count - 1] = last.lowerBound...Swift.max(last.upperBound, hi)
            } else {
                ranges.append(lo...hi)
            }
        }
        return ranges
    }

    /// The section that holds the item at `global` (sections without items are skipped).
    private func sectionIndex(ofGlobal global: Int) -> Int {
        var lo = 0, hi = sectionStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if sectionStarts[mid] <= global { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    public func attributes(for element: ElementID) -> LayoutAttributes? {
        let ip = element.indexPath
        guard element.isCell, ip.section >= 0, ip.section < sectionStarts.count, ip.item >= 0 else { return nil }
        let end = ip.section + 1 < sectionStarts.count ? sectionStarts[ip.section + 1] : total
        let global = sectionStarts[ip.section] + ip.item
        guard global < end else { return nil }
        return cellAttributes(section: ip.section, item: ip.item, global: global)
    }

    /// From the centre, transparent.
    public func initialAttributes(forAppearing element: ElementID) -> LayoutAttributes? {
        guard var a = attributes(for: element) else { return nil }
        a.center = centre
        a.alpha = 0
        return a
    }

    /// Into the centre, scaled to 0.1, transparent.
    public func finalAttributes(forDisappearing element: ElementID, from attributes: LayoutAttributes) -> LayoutAttributes? {
        var a = attributes
        a.center = centre
        a.alpha = 0
        a.transform = .scale(x: 0.1, y: 0.1)
        return a
    }

    /// The circle depends on the bounds' size, not its origin.
    public func shouldInvalidate(forBoundsChange newBounds: Rect) -> Bool { newBounds.size != boundsSize }

    private func cellAttributes(section: Int, item: Int, global: Int) -> LayoutAttributes {
        let angle = 2 * Double.pi * Double(global) / Double(max(total, 1))
        let size = (global < itemSizes.count ? itemSizes[global] : nil) ?? itemSize
        let c = Point(x: centre.x + effectiveRadius * cos(angle), y: centre.y + effectiveRadius * sin(angle))
        return LayoutAttributes(element: .cell(section, item),
                                frame: Rect(x: c.x - size.width / 2, y: c.y - size.height / 2, width: size.width, height: size.height))
    }
}
