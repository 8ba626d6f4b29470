/// The terminal as the viewer drives it: the escape sequences that take it over and give it
/// back, and the bytes that turn what it shows now into a new canvas (only the rows that changed
/// are rewritten, so an idle or mostly still scene costs almost nothing to redraw).
public struct TerminalScreen: Sendable {
    private var shown: TerminalCanvas?

    public init() {}

    /// Alternate screen (the shell's screen comes back untouched on exit), cursor hidden, cleared.
    public static let enter = "\u{1b}[?1049h\u{1b}[?25l\u{1b}[0m\u{1b}[2J"
    /// Attributes reset, cursor shown, main screen back.
    public static let leave = "\u{1b}[0m\u{1b}[?25h\u{1b}[?1049l"

    /// Forgets what is on screen, so the next update redraws every row (after a resize).
    public mutating func invalidate() { shown = nil }

    /// The output that makes the terminal show `canvas`.
    public mutating func update(to canvas: TerminalCanvas) -> String {
        var out = ""
        let full = shown == nil || shown!.columns != canvas.columns || shown!.rows != canvas.rows
        if full { out += "\u{1b}[0m\u{1b}[2J" }
        for r in 0..<canvas.rows {
            let row = canvas.row(r)
            if !full, shown!.row(r).elementsEqual(row) { continue }
            out += "\u{1b}[\(r + 1);1H"
            var style: CellStyle? = nil
            for (i, cell) in row.enumerated() {
                if cell.style != style {
                    out += Self.sgr(cell.style)
                    style = cell.style
                }
                // Writing the bottom-right cell would scroll some terminals; it is left alone.
                if r == canvas.rows - 1 && i == canvas.columns - 1 { break }
                out.unicodeScalars.append(cell.character)
            }
        }
        if !out.isEmpty { out += "\u{1b}[0m" }
        shown = canvas
        return out
    }

    /// The SGR sequence that sets exactly `style` (reset first, so nothing leaks from before).
    static func sgr(_ style: CellStyle) -> String {
        var parameters = ["0"]
        switch style.intensity {
        case .bold: parameters.append("1")
        case .dim: parameters.append("2")
        case .normal: break
        }
        if style.inverse { parameters.append("7") }
        if let color = style.foreground { parameters.append(color.foregroundParameters) }
        return "\u{1b}[" + parameters.joined(separator: ";") + "m"
    }
}
