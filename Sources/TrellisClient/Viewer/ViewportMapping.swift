import TrellisCore

/// A position on the character grid in cell units, not yet rounded: x counts columns, y rows.
public struct CellPoint: Hashable, Sendable {
    public var x: Double, y: Double
    public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
}

/// The cells a box covers, inclusive on every side.
public struct CellBox: Hashable, Sendable {
    public var left: Int, top: Int, right: Int, bottom: Int
    public init(left: Int, top: Int, right: Int, bottom: Int) {
        self.left = left; self.top = top; self.right = right; self.bottom = bottom
    }
}

/// How the session's visible rect (content offset and bounds, in points) lands on an area of
/// character cells: one scale for both axes, corrected for cells about twice as tall as wide, so
/// a square item looks square; the visible rect is centred in the area.
public struct ViewportMapping: Hashable, Sendable {
    /// A terminal cell is about twice as tall as it is wide.
    public static let defaultCellAspect = 2.0

    /// The content point at the visible rect's top-left corner.
    public var origin: Point
    public var pointsPerColumn: Double
    public var pointsPerRow: Double
    /// Where the visible rect starts in the area (the margins that centre it).
    public var columnOffset: Int
    public var rowOffset: Int
    /// The cells the visible rect occupies (at most the area's size).
    public var visibleColumns: Int
    public var visibleRows: Int

    /// Fits `visible` into `columns` × `rows` cells.
    public init(visible: Rect, columns: Int, rows: Int, cellAspect: Double = ViewportMapping.defaultCellAspect) {
        let columns = max(1, columns), rows = max(1, rows)
        let width = max(visible.width, 1), height = max(visible.height, 1)
        // The larger of the two scales fits both dimensions.
        pointsPerColumn = max(width / Double(columns), height / (Double(rows) * cellAspect))
        pointsPerRow = pointsPerColumn * cellAspect
        origin = visible.origin
        let spanX = width / pointsPerColumn, spanY = height / pointsPerRow
        // A hair below the next whole cell: 100.0000001 cells of rounding error is 100 cells.
        visibleColumns = min(columns, Int((spanX - 1e-9).rounded(.up)))
        visibleRows = min(rows, Int((spanY - 1e-9).rounded(.up)))
        columnOffset = max(0, Int(((Double(columns) - spanX) / 2).rounded(.down)))
        rowOffset = max(0, Int(((Double(rows) - spanY) / 2).rounded(.down)))
    }

    /// A content point in cell units.
    public func cellPoint(_ p: Point) -> CellPoint {
        CellPoint(Double(columnOffset) + (p.x - origin.x) / pointsPerColumn, Double(rowOffset) + (p.y - origin.y) / pointsPerRow)
    }

    /// The cell a corner of a box lands in: each corner is pulled half a cell towards the box's
    /// centre first, so a box covers the cells whose centres it covers (edge to edge boxes do
    /// not share a column) and a box narrower than a cell still gets one.
    public func cornerCell(_ corner: CellPoint, towards centre: CellPoint) -> (column: Int, row: Int) {
        func pull(_ v: Double, _ c: Double) -> Double {
            if v < c { return min(v + 0.5, c) }
            if v > c { return max(v - 0.5, c) }
            return v
        }
        return (Int(pull(corner.x, centre.x).rounded(.down)), Int(pull(corner.y, centre.y).rounded(.down)))
    }

    /// The cells an untransformed frame covers.
    public func cellBox(_ frame: Rect) -> CellBox {
        let a = cellPoint(frame.origin), b = cellPoint(Point(frame.maxX, frame.maxY))
        let centre = CellPoint((a.x + b.x) / 2, (a.y + b.y) / 2)
        let topLeft = cornerCell(a, towards: centre), bottomRight = cornerCell(b, towards: centre)
        return CellBox(left: topLeft.column, top: topLeft.row, right: bottomRight.column, bottom: bottomRight.row)
    }
}
