#if canImport(Glibc)
import Glibc
#endif
import TrellisCore
import TrellisDynamics

/// Draws the debug layer's shapes into the terminal's cells, dim, before the views are drawn
/// over them: lines stepped cell by cell in the kind's glyph, points as one glyph, arrows with
/// a head, ellipses as 32 chords, labels beside their shape; clipped to the visible rect.
public struct DebugLayerRasterizer: Sendable {
    public var colorDepth: ColorDepth
    public var unicode: Bool

    public init(colorDepth: ColorDepth, unicode: Bool) {
        self.colorDepth = colorDepth
        self.unicode = unicode
    }

    public func draw(_ shapes: [DebugShape], mapping: ViewportMapping, into canvas: inout TerminalCanvas) {
        let clip = CellBox(left: mapping.columnOffset, top: mapping.rowOffset,
                           right: mapping.columnOffset + mapping.visibleColumns - 1,
                           bottom: mapping.rowOffset + mapping.visibleRows - 1)
        for shape in shapes {
            let style = CellStyle(foreground: ViewColor(parsing: DebugStyle.color(shape.kind)).flatMap { TerminalColor($0, depth: colorDepth) },
                                  intensity: .dim)
            func put(_ glyph: Unicode.Scalar, _ p: CellPoint) {
                let column = Int(p.x.rounded(.down)), row = Int(p.y.rounded(.down))
                guard column >= clip.left, column <= clip.right, row >= clip.top, row <= clip.bottom else { return }
                canvas[column, row] = TerminalCell(glyph, style: style)
            }
            func line(_ a: CellPoint, _ b: CellPoint) {
                // Clipped to the visible cells first (Liang–Barsky), so a boundary that crosses
                // the whole content costs what it covers on screen.
                var t0 = 0.0, t1 = 1.0
                let dx = b.x - a.x, dy = b.y - a.y
                for (p, q) in [(-dx, a.x - Double(clip.left)), (dx, Double(clip.right + 1) - a.x),
                               (-dy, a.y - Double(clip.top)), (dy, Double(clip.bottom + 1) - a.y)] {
                    if p == 0 {
                        if q < 0 { return }
                    } else {
                        let r = q / p
                        if p < 0 { t0 = max(t0, r) } else { t1 = min(t1, r) }
                    }
                }
                guard t0 <= t1, t0.isFinite, t1.isFinite else { return }
                let from = CellPoint(a.x + dx * t0, a.y + dy * t0), to = CellPoint(a.x + dx * t1, a.y + dy * t1)
                let steps = Int(max(abs(to.x - from.x), abs(to.y - from.y)).rounded(.up))
                let glyph = DebugStyle.glyph(shape.kind, unicode: unicode)
                for k in 0...steps {
                    let t = steps == 0 ? 0 : Double(k) / Double(steps)
                    put(glyph, CellPoint(from.x + (to.x - from.x) * t, from.y + (to.y - from.y) * t))
                }
            }
            func path(_ points: [Point], closed: Bool) {
                let cells = points.map(mapping.cellPoint)
                guard cells.count > 1 else { if let c = cells.first { put(DebugStyle.pointGlyph(shape.kind, unicode: unicode), c) }; return }
                for k in 0..<(cells.count - 1) { line(cells[k], cells[k + 1]) }
                if closed { line(cells[cells.count - 1], cells[0]) }
            }
            var labelAt: CellPoint?
            switch shape.geometry {
            case .polygon, .box:
                let p = shape.geometry.points
                path(p, closed: true)
                labelAt = p.first.map(mapping.cellPoint)
            case .polyline(let p):
                path(p, closed: false)
                labelAt = p.first.map(mapping.cellPoint)
            case .ellipse(let c, let r):
                let points = (0..<32).map { k -> Point in
                    let t = Double(k) * 2 * Double.pi / 32
                    return Point(c.x + r.width * cos(t), c.y + r.height * sin(t))
                }
                path(points, closed: true)
                labelAt = mapping.cellPoint(Point(c.x, c.y - r.height))
            case .point(let p):
                let cell = mapping.cellPoint(p)
                put(DebugStyle.pointGlyph(shape.kind, unicode: unicode), cell)
                labelAt = cell
            case .arrow(let from, let to):
                let a = mapping.cellPoint(from), b = mapping.cellPoint(to)
                line(a, b)
                put(DebugStyle.arrowHead(dx: b.x - a.x, dy: b.y - a.y, unicode: unicode), b)
                labelAt = a
            }
            if let label = shape.label, let at = labelAt {
                for (k, scalar) in TerminalText.cells(label).enumerated() {
                    put(scalar, CellPoint(at.x + 1 + Double(k), at.y - 1))
                }
            }
        }
    }
}
