import TrellisCore

/// Draws a scene as text: each view a box scaled from points to character cells, back to
/// front, its transform applied (each cell is tested in the view's own space, so rotation,
/// scale and perspective show), faint views drawn with lighter strokes, labels centred.
public struct TextRenderer: Sendable {
    public var columns: Int
    public var rows: Int

    public init(columns: Int, rows: Int) {
        self.columns = max(1, columns)
        self.rows = max(1, rows)
    }

    /// The scene's visible bounds drawn into `rows` lines of `columns` characters.
    public func render(_ scene: Scene) -> [String] {
        var canvas = [[Character]](repeating: [Character](repeating: " ", count: columns), count: rows)
        guard scene.boundsSize.width > 0, scene.boundsSize.height > 0 else { return canvas.map { String($0) } }
        let sx = Double(columns) / scene.boundsSize.width, sy = Double(rows) / scene.boundsSize.height
        let origin = scene.contentOffset

        func point(_ c: Int, _ r: Int) -> Point {
            Point(x: origin.x + (Double(c) + 0.5) / sx, y: origin.y + (Double(r) + 0.5) / sy)
        }

        for view in scene.views {
            let a = view.attributes
            guard !a.isHidden, a.alpha >= 0.01 else { continue }
            let box = a.visualBounds
            let c0 = max(0, Int(((box.minX - origin.x) * sx).rounded(.down)))
            let c1 = min(columns - 1, Int(((box.maxX - origin.x) * sx).rounded(.up)))
            let r0 = max(0, Int(((box.minY - origin.y) * sy).rounded(.down)))
            let r1 = min(rows - 1, Int(((box.maxY - origin.y) * sy).rounded(.up)))
            guard c0 <= c1, r0 <= r1 else { continue }
            let stroke = Stroke(alpha: a.alpha)
            var inside: [(Int, Int)] = []
            for r in r0...r1 {
                for c in c0...c1 where a.contains(point(c, r)) {
                    let openSides = (left: !a.contains(point(c - 1, r)), right: !a.contains(point(c + 1, r)),
                                     up: !a.contains(point(c, r - 1)), down: !a.contains(point(c, r + 1)))
                    let vertical = openSides.left || openSides.right, horizontal = openSides.up || openSides.down
                    canvas[r][c] = vertical && horizontal ? stroke.corner
                        : vertical ? stroke.vertical : horizontal ? stroke.horizontal : " "
                    if !vertical && !horizontal { inside.append((r, c)) }
                }
            }
            writeLabel(view.displayLabel, into: &canvas, interior: inside)
        }
        return canvas.map { String($0) }
    }

    private func writeLabel(_ label: String, into canvas: inout [[Character]], interior: [(Int, Int)]) {
        guard !interior.isEmpty else { return }
        let rowsInside = Set(interior.map(\.0)).sorted()
        let row = rowsInside[rowsInside.count / 2]
        let columnsInRow = interior.filter { $0.0 == row }.map(\.1).sorted()
        guard let first = columnsInRow.first, let last = columnsInRow.last else { return }
        let text = Array(label.prefix(last - first + 1))
        let start = first + (last - first + 1 - text.count) / 2
        for (i, ch) in text.enumerated() { canvas[row][start + i] = ch }
    }

    /// Heavier strokes for opaque views, lighter ones as alpha falls (alpha as shade).
    private struct Stroke {
        var corner: Character, vertical: Character, horizontal: Character
        init(alpha: Double) {
            if alpha >= 0.66 { (corner, vertical, horizontal) = ("+", "|", "-") }
            else if alpha >= 0.33 { (corner, vertical, horizontal) = ("+", ":", "~") }
            else { (corner, vertical, horizontal) = (".", ".", ".") }
        }
    }
}
