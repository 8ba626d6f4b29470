/// A boundary or decoration element of a section, placed relative to the section (flow space).
struct CompositionalBoundaryPlacement: Hashable, Sendable {
    /// Where the frame's y counts from.
    enum Origin: Hashable, Sendable {
        /// The section's start (headers).
        case sectionStart
        /// The end of the section's content, bottom inset included (footers).
        case contentEnd
        /// Spans the content (top inset to bottom inset), shrunk by these insets (backgrounds).
        case content(EdgeInsets)
    }

    var kind: ElementKind
    var frame: Rect
    var origin: Origin
    var zIndex: Int
    var pins: Bool
}

/// A section description solved once for its container: its group, where the groups start and
/// how far apart they are, its headers, footers and backgrounds. Sections differ only in their
/// item counts, so every section using the description shares this.
struct CompositionalSectionTemplate: Hashable, Sendable {
    var group: CompositionalGroupTemplate
    var isOrthogonal: Bool
    var behavior: OrthogonalScrollingBehavior
    var effect: CompositionalVisibleItemsEffect?
    /// The first group's origin with the headers' length not yet added.
    var groupOrigin: Point
    /// From one group's origin to the next: along y, or along x in an orthogonal section.
    var pitch: Double
    var interGroupSpacing: Double
    var topInset: Double
    var bottomInset: Double
    /// The inset after the last group across (an orthogonal band's content ends there).
    var trailingInset: Double
    /// Headers that take room.
    var headerLength = 0.0
    /// Footers that take room.
    var footerLength = 0.0
    /// Decorations first, then boundary items in their order.
    var boundary: [CompositionalBoundaryPlacement] = []
    var hasPinned = false

    /// `section` (already in flow space) inside a container of `container` (flow space), in a
    /// view `viewWidth` wide (adaptive counts follow it).
    init(_ section: CompositionalSection, container: Size, viewWidth: Double) {
        let insets = section.contentInsets
        let area = Size(width: container.width - insets.left - insets.right, height: container.height - insets.top - insets.bottom)
        group = CompositionalGroupTemplate(section.group.resolvingAdaptiveCounts(width: viewWidth), in: area)
        isOrthogonal = section.isOrthogonal
        behavior = section.orthogonalScrollingBehavior
        effect = section.isOrthogonal ? section.visibleItemsEffect : nil
        trailingInset = insets.right
        interGroupSpacing = section.interGroupSpacing
        topInset = insets.top
        bottomInset = insets.bottom
        groupOrigin = Point(x: insets.left, y: insets.top)
        pitch = (isOrthogonal ? group.size.width : group.size.height) + section.interGroupSpacing
        for d in section.decorationItems {
            boundary.append(CompositionalBoundaryPlacement(kind: .decoration(d.kind), frame: Rect(x: 0, y: 0, width: container.width, height: 0),
                                                           origin: .content(d.contentInsets), zIndex: d.zIndex, pins: false))
        }
        // Headers and footers span the section inside its side insets (supplementariesFollowContentInsets).
        let across = Size(width: container.width - insets.left - insets.right, height: container.height)
        for b in section.boundaryItems {
            let size = b.size.resolve(in: across)
            let a = b.alignment.edges.anchor
            let x = insets.left + a.x * (across.width - size.width) + b.offset.x
            let isFooter = b.alignment.edges.contains(.bottom)
            var placement = CompositionalBoundaryPlacement(kind: .supplementary(b.kind), frame: Rect(x: x, y: b.offset.y, width: size.width, height: size.height),
                                                           origin: isFooter ? .contentEnd : .sectionStart, zIndex: b.zIndex,
                                                           pins: b.pinToVisibleBounds && !isFooter)
            hasPinned = hasPinned || placement.pins
            // Extending headers stack from the section's start and footers from the content's
            // end, each pushing what follows; the others (and leading or trailing ones: ours)
            // sit at that point over the content, taking no room.
            if b.extendsBoundary && b.alignment.edges.contains(isFooter ? .bottom : .top) {
                if isFooter {
                    placement.frame.origin.y += footerLength
                    footerLength += size.height
                } else {
                    placement.frame.origin.y += headerLength
                    headerLength += size.height
                }
            }
            boundary.append(placement)
        }
    }

    /// The length of `groups` groups along the scroll axis between the insets.
    func contentLength(groups: Int) -> Double {
        if isOrthogonal { return topInset + (groups > 0 ? group.size.height : 0) + bottomInset }
        return topInset + (groups > 0 ? Double(groups) * group.size.height + Double(groups - 1) * interGroupSpacing : 0) + bottomInset
    }
}
