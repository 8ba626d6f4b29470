/// How one cell is drawn: its colour and weight.
public struct CellStyle: Hashable, Sendable {
    /// Bold, normal or dim: the terminal's three intensities.
    public enum Intensity: Hashable, Sendable { case bold, normal, dim }

    public var foreground: TerminalColor?
    public var intensity: Intensity
    /// Foreground and background swapped (the status line).
    public var inverse: Bool

    public init(foreground: TerminalColor? = nil, intensity: Intensity = .normal, inverse: Bool = false) {
        self.foreground = foreground; self.intensity = intensity; self.inverse = inverse
    }

    public static let plain = CellStyle()
}

/// One character cell: a single-width character and its style.
public struct TerminalCell: Hashable, Sendable {
    public var character: Unicode.Scalar
    public var style: CellStyle

    public init(_ character: Unicode.Scalar, style: CellStyle = .plain) {
        self.character = character; self.style = style
    }

    public static let blank = TerminalCell(" ")
}

/// A grid of character cells, what the viewer draws before it becomes ANSI output (or plain
/// text without a terminal). Writes outside the grid are dropped, so drawing code clips nothing itself.
public struct TerminalCanvas: Hashable, Sendable {
    public let columns: Int
    public let rows: Int
    private var cells: [TerminalCell]

    public init(columns: Int, rows: Int) {
        self.columns = max(0, columns)
        self.rows = max(0, rows)
        cells = Array(repeating: .blank, count: self.columns * self.rows)
    }

    public func contains(column: Int, row: Int) -> Bool {
        column >= 0 && column < columns && row >= 0 && row < rows
    }

    public subscript(column: Int, row: Int) -> TerminalCell {
        get { contains(column: column, row: row) ? cells[row * columns + column] : .blank }
        set { if contains(column: column, row: row) { cells[row * columns + column] = newValue } }
    }

    /// One row of cells.
    public func row(_ row: Int) -> ArraySlice<TerminalCell> {
        guard row >= 0 && row < rows else { return [] }
        return cells[row * columns..<(row + 1) * columns]
    }

    /// Writes `text` from `column` on `row`, one cell per character (see `TerminalText.cells`).
    public mutating func write(_ text: String, column: Int, row: Int, style: CellStyle) {
        for (i, scalar) in TerminalText.cells(text).enumerated() {
            self[column + i, row] = TerminalCell(scalar, style: style)
        }
    }

    /// The characters of each row without styles or trailing spaces: the text form.
    public var lines: [String] {
        (0..<rows).map { r in
            var line = String(String.UnicodeScalarView(row(r).map(\.character)))
            while line.last == " " { line.removeLast() }
            return line
        }
    }
}

/// Text as a terminal shows it, one cell per character: control characters and characters that
/// take no cell or two (combining marks, East Asian wide characters, emoji) would shift
/// everything after them, so they are dropped or replaced.
public enum TerminalText {
    public static func cells(_ text: String) -> [Unicode.Scalar] {
        var result: [Unicode.Scalar] = []
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if v < 0x20 || (v >= 0x7f && v < 0xa0) { result.append("?"); continue }
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .format: continue
            default: break
            }
            result.append(isWide(v) ? "?" : scalar)
        }
        return result
    }

    /// The wide ranges of UAX #11 that matter in practice.
    static func isWide(_ v: UInt32) -> Bool {
        (0x1100...0x115f).contains(v) || (0x2e80...0xa4cf).contains(v) || (0xac00...0xd7a3).contains(v)
            || (0xf900...0xfaff).contains(v) || (0xfe30...0xfe4f).contains(v) || (0xff00...0xff60).contains(v)
            || (0xffe0...0xffe6).contains(v) || (0x1f000...0x1faff).contains(v) || (0x20000...0x3fffd).contains(v)
    }
}
