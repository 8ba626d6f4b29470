import TrellisCore

/// Draws a scene onto a `TerminalCanvas`: each bound view a box whose four corners went through
/// its transform (so rotation, scale and perspective show), outlined edge by edge, its inside
/// cleared so a view in front hides the one behind, views with a higher zIndex drawn last, its
/// label centred; colour from `data.color` or from the reuse identifier; alpha as the weight of
/// the strokes, and depth too (`DepthCue`): the nearest views heavy, the farthest light.
public struct SceneRasterizer: Sendable {
    public var colorDepth: ColorDepth
    /// Box-drawing characters (UTF-8 terminals) or ASCII.
    public var unicode: Bool

    public init(colorDepth: ColorDepth, unicode: Bool) {
        self.colorDepth = colorDepth
        self.unicode = unicode
    }

    /// A view to draw, with the cells its corners and centre land in.
    private struct Placed {
        var view: SceneView
        var corners: [(column: Int, row: Int)]
        var centre: CellPoint
    }

    /// Draws the views of `scene` that meet the visible rect of `mapping`, clipped to it.
    public func draw(_ scene: Scene, mapping: ViewportMapping, into canvas: inout TerminalCanvas) {
        var appearances = ViewAppearances()
        draw(scene, mapping: mapping, appearances: &appearances, into: &canvas)
    }

    /// The same, with labels and colours kept in `appearances` from one frame to the next (a
    /// viewer that redraws every frame reads each payload once).
    public func draw(_ scene: Scene, mapping: ViewportMapping, appearances: inout ViewAppearances, into canvas: inout TerminalCanvas) {
        let clip = CellBox(left: mapping.columnOffset, top: mapping.rowOffset,
                           right: mapping.columnOffset + mapping.visibleColumns - 1,
                           bottom: mapping.rowOffset + mapping.visibleRows - 1)
        // The scene is already back to front; the stable sort only guarantees the zIndex rule
        // for any scene handed in.
        let ordered = scene.views.enumerated().sorted {
            ($0.element.attributes.zIndex, $0.offset) < ($1.element.attributes.zIndex, $1.offset)
        }
        var placed: [Placed] = []
        for (_, view) in ordered {
            let a = view.attributes
            // UIKit's rule for touches is the viewer's rule for sight: hidden or (nearly)
            // transparent views are not drawn.
            guard !a.isHidden, a.alpha >= 0.01, let (corners, centre) = Self.corners(of: a, mapping: mapping) else { continue }
            let columns = corners.map(\.column), rows = corners.map(\.row)
            guard columns.max()! >= clip.left, columns.min()! <= clip.right, rows.max()! >= clip.top, rows.min()! <= clip.bottom else { continue }
            placed.append(Placed(view: view, corners: corners, centre: centre))
        }
        // Depth among what is on screen: views far off to the side do not stretch the scale.
        let cues = DepthCue.cues(for: placed.map { DepthCue.depth(of: $0.view.attributes) })
        for (p, cue) in zip(placed, cues) {
            draw(p.view, appearance: appearances.of(p.view), corners: p.corners, centre: p.centre, cue: cue, mapping: mapping,
                 clip: clip, into: &canvas)
        }
        appearances.keep(only: scene)
    }

    /// The cells of the view's four corners (clockwise from its own top-left) and of its
    /// centre; nil when the transform sends it out of sight (behind a perspective eye).
    public static func corners(of attributes: LayoutAttributes, mapping: ViewportMapping) -> (corners: [(column: Int, row: Int)], centre: CellPoint)? {
        let points = attributes.transformedCorners.map(mapping.cellPoint)
        guard points.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return nil }
        let centrePoint = attributes.hasTransform
            ? attributes.center + attributes.transform.apply(to: .zero) : attributes.center
        let centre = mapping.cellPoint(centrePoint)
        guard centre.x.isFinite, centre.y.isFinite else { return nil }
        return (points.map { mapping.cornerCell($0, towards: centre) }, centre)
    }

    private func draw(_ view: SceneView, appearance: ViewAppearances.Appearance, corners: [(column: Int, row: Int)], centre: CellPoint, cue: DepthCue,
                      mapping: ViewportMapping, clip: CellBox, into canvas: inout TerminalCanvas) {
        let a = view.attributes
        let minColumn = corners.map(\.column).min()!, maxColumn = corners.map(\.column).max()!
        let minRow = corners.map(\.row).min()!, maxRow = corners.map(\.row).max()!
        // A transform can make a view huge; only the clipped part is ever walked.
        let left = max(minColumn, clip.left), right = min(maxColumn, clip.right)
        let top = max(minRow, clip.top), bottom = min(maxRow, clip.bottom)

        // A far view is drawn as a half-faded one at most; a near opaque one with heavy strokes.
        let alpha = cue == .far ? min(a.alpha, 0.5) : a.alpha
        let glyphs = cue == .near && alpha >= 0.66 ? BoxGlyphs.heavy(unicode: unicode) : BoxGlyphs.forAlpha(alpha, unicode: unicode)
        let color = TerminalColor(appearance.color, depth: colorDepth)
        let strokeStyle = CellStyle(foreground: color, intensity: alpha >= 0.66 ? (cue == .near ? .bold : .normal) : .dim)
        let labelStyle = CellStyle(foreground: color, intensity: alpha >= 0.66 ? .bold : alpha >= 0.33 ? .normal : .dim)
        func inClip(_ c: Int, _ r: Int) -> Bool { c >= clip.left && c <= clip.right && r >= clip.top && r <= clip.bottom }

        // Inside: cleared, so what is behind does not show through.
        let polygon = corners.map { (Double($0.column), Double($0.row)) }
        var outline = Set<Int>()
        let width = right - left + 1
        for r in top...bottom {
            for c in left...right where Self.polygon(polygon, contains: (Double(c), Double(r))) {
                canvas[c, r] = .blank
            }
        }
        // Edges: Bresenham between corner cells, the glyph chosen by the edge's direction as the
        // eye sees it (a cell is `cellAspect` times taller than wide).
        let aspect = mapping.pointsPerRow / mapping.pointsPerColumn
        for k in 0..<4 {
            let from = corners[k], to = corners[(k + 1) % 4]
            let glyph = Self.edgeGlyph(dx: to.column - from.column, dy: to.row - from.row, aspect: aspect, glyphs: glyphs)
            Self.line(from, to) { c, r in
                guard inClip(c, r) else { return }
                canvas[c, r] = TerminalCell(glyph, style: strokeStyle)
                outline.insert((r - top) * width + (c - left))
            }
        }
        // Corners: box corners for an upright box, a mark where slanted edges meet.
        let upright = corners[0].row == corners[1].row && corners[2].row == corners[3].row
            && corners[1].column == corners[2].column && corners[3].column == corners[0].column
        if !(upright && (minColumn == maxColumn || minRow == maxRow)) {
            for corner in corners where inClip(corner.column, corner.row) {
                let glyph: Unicode.Scalar
                if upright {
                    switch (corner.column == minColumn, corner.row == minRow) {
                    case (true, true): glyph = glyphs.topLeft
                    case (false, true): glyph = glyphs.topRight
                    case (true, false): glyph = glyphs.bottomLeft
                    case (false, false): glyph = glyphs.bottomRight
                    }
                } else {
                    glyph = glyphs.corner
                }
                canvas[corner.column, corner.row] = TerminalCell(glyph, style: strokeStyle)
            }
        }
        // Label: on the centre's row, centred in the run of inside cells around the centre; a
        // box too flat to have an inside carries it on its top edge, as a window its title.
        let labelRow = Int(centre.y.rounded(.down))
        var runs: [ClosedRange<Int>] = []
        if labelRow >= top, labelRow <= bottom {
            var runStart: Int?
            for c in left...(right + 1) {
                let inside = c <= right && !outline.contains((labelRow - top) * width + (c - left))
                    && Self.polygon(polygon, contains: (Double(c), Double(labelRow)))
                if inside, runStart == nil { runStart = c }
                if !inside, let start = runStart { runs.append(start...(c - 1)); runStart = nil }
            }
        }
        let centreColumn = Int(centre.x.rounded(.down))
        var row = labelRow
        var chosen = runs.first(where: { $0.contains(centreColumn) }) ?? runs.max(by: { $0.count < $1.count })
        let titleFrom = max(minColumn + 1, left), titleTo = min(maxColumn - 1, right)
        if chosen == nil, upright, minRow >= top, minRow <= bottom, titleFrom <= titleTo {
            row = minRow
            chosen = titleFrom...titleTo
        }
        guard let run = chosen else { return }
        let text = Array(TerminalText.cells(appearance.label).prefix(run.count))
        let start = run.lowerBound + (run.count - text.count) / 2
        for (i, scalar) in text.enumerated() { canvas[start + i, row] = TerminalCell(scalar, style: labelStyle) }
    }

    /// `─`, `│`, `╱` or `╲` for an edge going `dx` columns and `dy` rows.
    static func edgeGlyph(dx: Int, dy: Int, aspect: Double, glyphs: BoxGlyphs) -> Unicode.Scalar {
        if dy == 0 { return glyphs.horizontal }
        if dx == 0 { return glyphs.vertical }
        // Below 22.5° from the horizontal it reads as a horizontal line, above 67.5° as a
        // vertical one (tan 22.5° = √2 − 1, tan 67.5° = √2 + 1).
        let rise = abs(Double(dy)) * aspect, run = abs(Double(dx))
        if rise < (2.0.squareRoot() - 1) * run { return glyphs.horizontal }
        if rise > (2.0.squareRoot() + 1) * run { return glyphs.vertical }
        // y grows downwards: going right and down is `╲`.
        return (dx > 0) == (dy > 0) ? glyphs.falling : glyphs.rising
    }

    /// Every cell on the line between two cells (Bresenham), both ends included.
    static func line(_ a: (column: Int, row: Int), _ b: (column: Int, row: Int), _ visit: (Int, Int) -> Void) {
        var x = a.column, y = a.row
        let dx = abs(b.column - x), dy = -abs(b.row - y)
        let sx = x < b.column ? 1 : -1, sy = y < b.row ? 1 : -1
        var error = dx + dy
        while true {
            visit(x, y)
            if x == b.column && y == b.row { return }
            let e2 = 2 * error
            if e2 >= dy { error += dy; x += sx }
            if e2 <= dx { error += dx; y += sy }
        }
    }

    /// True when `p` is inside the convex quad or on its edges, whichever way round it winds
    /// (a negative scale flips it).
    static func polygon(_ quad: [(Double, Double)], contains p: (Double, Double)) -> Bool {
        var positive = false, negative = false
        for k in 0..<quad.count {
            let a = quad[k], b = quad[(k + 1) % quad.count]
            let cross = (b.0 - a.0) * (p.1 - a.1) - (b.1 - a.1) * (p.0 - a.0)
            if cross > 0 { positive = true }
            if cross < 0 { negative = true }
            if positive && negative { return false }
        }
        return true
    }
}
