import TrellisCore

/// The demo's geometry in a view of `bounds`: cells sized to the view, four a row and about
/// three and a half rows on screen, so an 80×24 terminal, a 160×48 one and the browser's page
/// show the same picture and two dozen items are enough to scroll (the fling, the springy drag).
public struct DemoMetrics: Hashable, Sendable {
    /// Between cells and around the section, as the flow layout's spacing and insets.
    public static let spacing = 12.0
    static let columns = 4.0
    static let rowsOnScreen = 3.5

    public let bounds: Size
    /// The flow layout's cells.
    public let itemSize: Size

    /// `itemSize` nil: from the bounds.
    public init(bounds: Size, itemSize: Size? = nil) {
        self.bounds = bounds
        if let itemSize {
            self.itemSize = itemSize
        } else {
            let s = Self.spacing
            let width = max(8, ((bounds.width - s * (Self.columns + 1)) / Self.columns).rounded(.down))
            // Tall views get taller cells, wide ones flatter, within reason either way.
            let height = ((bounds.height - s * (Self.rowsOnScreen + 1)) / Self.rowsOnScreen).rounded(.down)
            self.itemSize = Size(width, min(max(height, width * 0.5), width * 1.2).rounded(.down))
        }
    }

    /// Cells in a row of the flow layout.
    public var perRow: Int {
        let s = Self.spacing
        return max(1, Int(((bounds.width - s) / (itemSize.width + s)).rounded(.down)))
    }

    /// Whole rows of the flow layout on screen at the top.
    public var rowsVisible: Int {
        let s = Self.spacing
        return max(1, Int(((bounds.height - s) / (itemSize.height + s)).rounded(.down)))
    }

    /// Index paths on screen when the flow layout is at the top: where batch updates happen.
    public var cellsVisible: Int { perRow * rowsVisible }

    /// How far the flow layout of `items` cells scrolls.
    public func scrollRange(items: Int) -> Double {
        let rows = (items + perRow - 1) / perRow
        let content = Self.spacing + Double(rows) * (itemSize.height + Self.spacing)
        return max(0, content - bounds.height)
    }
}
