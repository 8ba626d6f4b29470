/// UICollectionViewFlowLayout's configuration: the global values (UIKit's defaults) and per-section overrides.
public struct FlowLayoutMetrics: Hashable, Sendable {
    /// The size of items whose `Item.size` is nil.
    public var itemSize: Size
    /// Between rows (between columns when scrolling horizontally); never before the first or after the last.
    public var minimumLineSpacing: Double
    /// Between items of a row: decides how many fit; full rows then spread the leftover over their gaps.
    public var minimumInteritemSpacing: Double
    /// Around each section's items, inside its header and footer.
    public var sectionInset: EdgeInsets
    /// Only the length along the scroll axis counts (the other spans the view); 0 means no header.
    public var headerReferenceSize: Size
    /// Only the length along the scroll axis counts (the other spans the view); 0 means no footer.
    public var footerReferenceSize: Size
    public var scrollDirection: FlowLayout.ScrollDirection
    /// Headers stay at the top of the visible bounds until their section's end pushes them off (iOS 9).
    public var sectionHeadersPinToVisibleBounds: Bool
    /// Footers stay at the bottom of the visible bounds until their section's start pushes them off (iOS 9).
    public var sectionFootersPinToVisibleBounds: Bool
    /// When true each section gets a `ElementKind.sectionBackground` element behind its items.
    public var sectionBackgroundDecoration: Bool
    /// Values for single sections (keyed by section index) that win over the global ones.
    public var sectionOverrides: [Int: FlowSectionOverrides]

    public init(itemSize: Size = Size(50, 50), minimumLineSpacing: Double = 10, minimumInteritemSpacing: Double = 10,
                sectionInset: EdgeInsets = .zero, headerReferenceSize: Size = .zero, footerReferenceSize: Size = .zero,
                scrollDirection: FlowLayout.ScrollDirection = .vertical,
                sectionHeadersPinToVisibleBounds: Bool = false, sectionFootersPinToVisibleBounds: Bool = false,
                sectionBackgroundDecoration: Bool = false, sectionOverrides: [Int: FlowSectionOverrides] = [:]) {
        self.itemSize = itemSize
        self.minimumLineSpacing = minimumLineSpacing
        self.minimumInteritemSpacing = minimumInteritemSpacing
        self.sectionInset = sectionInset
        self.headerReferenceSize = headerReferenceSize
        self.footerReferenceSize = footerReferenceSize
        self.scrollDirection = scrollDirection
        self.sectionHeadersPinToVisibleBounds = sectionHeadersPinToVisibleBounds
        self.sectionFootersPinToVisibleBounds = sectionFootersPinToVisibleBounds
        self.sectionBackgroundDecoration = sectionBackgroundDecoration
        self.sectionOverrides = sectionOverrides
    }
}

/// One section's own values, as UICollectionViewDelegateFlowLayout's per-section methods; nil keeps the global value.
public struct FlowSectionOverrides: Hashable, Sendable {
    public var inset: EdgeInsets?
    public var minimumLineSpacing: Double?
    public var minimumInteritemSpacing: Double?
    public var headerReferenceSize: Size?
    public var footerReferenceSize: Size?

    public init(inset: EdgeInsets? = nil, minimumLineSpacing: Double? = nil, minimumInteritemSpacing: Double? = nil,
                headerReferenceSize: Size? = nil, footerReferenceSize: Size? = nil) {
        self.inset = inset
        self.minimumLineSpacing = minimumLineSpacing
        self.minimumInteritemSpacing = minimumInteritemSpacing
        self.headerReferenceSize = headerReferenceSize
        self.footerReferenceSize = footerReferenceSize
    }
}

extension FlowLayout {
    /// UICollectionView.ScrollDirection: the axis sections stack along (rows are across it).
    public enum ScrollDirection: String, Hashable, Sendable, CaseIterable {
        case vertical
        case horizontal
    }
}

/// One section's values with its overrides applied, in flow space (see `FlowSpace`).
struct FlowSectionSpec: Hashable, Sendable {
    var inset: EdgeInsets
    var lineSpacing: Double
    var interitemSpacing: Double
    /// Header and footer lengths along the scroll axis (≤ 0: none).
    var headerLength: Double
    var footerLength: Double
}

extension FlowLayoutMetrics {
    /// The values section `section` is laid out with.
    func spec(forSection section: Int, in space: FlowSpace) -> FlowSectionSpec {
        let o = sectionOverrides.isEmpty ? nil : sectionOverrides[section]
        return FlowSectionSpec(
            inset: space.map(o?.inset ?? sectionInset),
            lineSpacing: o?.minimumLineSpacing ?? minimumLineSpacing,
            interitemSpacing: o?.minimumInteritemSpacing ?? minimumInteritemSpacing,
            headerLength: space.map(o?.headerReferenceSize ?? headerReferenceSize).height,
            footerLength: space.map(o?.footerReferenceSize ?? footerReferenceSize).height)
    }
}
