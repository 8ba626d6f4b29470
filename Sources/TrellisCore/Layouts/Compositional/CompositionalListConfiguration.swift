/// UICollectionLayoutListConfiguration as a preset: it expands into an ordinary description
/// (full-width rows of one item per group). UIKit's list metrics are not public; ours are
/// written on each appearance and in PROTOCOL.md.
public struct CompositionalListConfiguration: Hashable, Sendable {
    /// UICollectionLayoutListConfiguration.Appearance.
    public enum Appearance: String, Hashable, Sendable, CaseIterable {
        case plain, grouped, insetGrouped, sidebar, sidebarPlain
    }

    /// Whether sections get a header (or footer) supplementary.
    public enum HeaderMode: String, Hashable, Sendable, CaseIterable { case none, supplementary }

    public var appearance: Appearance
    public var headerMode: HeaderMode
    public var footerMode: HeaderMode
    /// Ours: rows are 44 points high (UIKit self-sizes them from an undocumented estimate).
    public var rowHeight: Double

    public init(appearance: Appearance, headerMode: HeaderMode = .none, footerMode: HeaderMode = .none, rowHeight: Double = 44) {
        self.appearance = appearance; self.headerMode = headerMode; self.footerMode = footerMode; self.rowHeight = rowHeight
    }

    /// Ours: plain and sidebarPlain no insets, headers pinned in plain (as a plain table's);
    /// grouped 20 above and below each section; insetGrouped also 20 at the sides; sidebar 10
    /// at the sides and 10 above and below. Headers 38, footers 28; inter-section spacing 0.
    public var description: CompositionalDescription {
        let insets: EdgeInsets
        switch appearance {
        case .plain, .sidebarPlain: insets = .zero
        case .grouped: insets = EdgeInsets(top: 20, left: 0, bottom: 20, right: 0)
        case .insetGrouped: insets = EdgeInsets(all: 20)
        case .sidebar: insets = EdgeInsets(all: 10)
        }
        let row = CompositionalItem(size: CompositionalSize(width: .fractionalWidth(1), height: .absolute(rowHeight)))
        let group = CompositionalGroup.horizontal(CompositionalSize(width: .fractionalWidth(1), height: .absolute(rowHeight)), [.item(row)])
        var boundary: [CompositionalBoundaryItem] = []
        if headerMode == .supplementary { boundary.append(.header(height: .absolute(38), pinned: appearance == .plain, zIndex: appearance == .plain ? 2 : 0)) }
        if footerMode == .supplementary { boundary.append(.footer(height: .absolute(28))) }
        let section = CompositionalSection(group: group, contentInsets: insets, boundaryItems: boundary)
        return CompositionalDescription(sections: [section])
    }
}
