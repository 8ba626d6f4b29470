#if canImport(Glibc)
import Glibc
#endif
import TrellisCore
import TrellisProtocol

/// Drawing: the mirrored scene rasterised into the terminal (or text), with the caption line
/// (when there is one) above it and the status line below; or written as JSON.
extension TerminalViewer {
    func currentMapping(_ scene: Scene) -> ViewportMapping {
        let captionRows = caption == nil ? 0 : 1
        var mapping = ViewportMapping(visible: Rect(origin: scene.contentOffset, size: scene.boundsSize),
                                      columns: size.columns, rows: max(1, size.rows - 1 - captionRows))
        mapping.rowOffset += captionRows
        return mapping
    }

    func render(countsAsFrame: Bool) {
        guard ready, exitReason == nil, let scene = past?.scene ?? mirror?.scene else { return }
        if countsAsFrame { sceneChanged = false }
        if case .json = configuration.output {
            guard countsAsFrame else { return }
            // A past moment: session.seek's reply as it came ({session, at, frame?, time, scene}).
            if let past {
                writeOut(JSONWriter.string(past.reply) + "\n")
                countFrame()
                return
            }
            guard let mirror else { return }
            var line = ByteBuffer()
            line.append("{\"seq\":")
            line.append(utf8: String(mirror.seq))
            line.append(",\"scene\":")
            WireEncoding.writeScene(scene, into: &line)
            line.append("}\n")
            writeOut(line.description)
            countFrame()
            return
        }
        var canvas = TerminalCanvas(columns: size.columns, rows: size.rows)
        let mapping = currentMapping(scene)
        // The debug layer first, dim: the views are drawn over it.
        if showsDebug {
            DebugLayerRasterizer(colorDepth: rasterizer.colorDepth, unicode: rasterizer.unicode)
                .draw(DebugLayerPlacement.inContent(debugLayer.sorted, scene: scene), mapping: mapping, into: &canvas)
        }
        rasterizer.draw(scene, mapping: mapping, appearances: &appearances, into: &canvas)
        drawEdges(of: mapping, into: &canvas)
        if let caption {
            let cells = TerminalText.cells(" " + caption).prefix(size.columns)
            canvas.write(String(String.UnicodeScalarView(cells)), column: 0, row: 0, style: CellStyle(intensity: .bold))
        }
        if let mirror {
            status.seq = mirror.seq
            status.bound = mirror.boundCount
            status.skippedFrames = mirror.skippedFrames
            status.framesPerSecond = meter.rate(now: Self.now())
        }
        status.past = pastStatus()
        canvas.write(status.line(width: size.columns), column: 0, row: size.rows - 1, style: CellStyle(inverse: true))
        switch configuration.output {
        case .terminal:
            writeOut(screen.update(to: canvas))
        case .text:
            guard countsAsFrame else { return }
            writeOut(canvas.lines.joined(separator: "\n") + "\n\n")
        case .json:
            return  // written above, without drawing
        }
        guard countsAsFrame else { return }
        countFrame()
    }

    private func countFrame() {
        framesDrawn += 1
        if let limit = configuration.frameLimit, framesDrawn >= limit { finish(.frameLimit) }
    }

    /// Faint lines either side of the visible rect when the terminal is wider than the view, so
    /// the session's bounds show.
    func drawEdges(of mapping: ViewportMapping, into canvas: inout TerminalCanvas) {
        let glyph: Unicode.Scalar = rasterizer.unicode ? "┊" : ":"
        let style = CellStyle(intensity: .dim)
        for column in [mapping.columnOffset - 1, mapping.columnOffset + mapping.visibleColumns] where column >= 0 && column < canvas.columns {
            for row in mapping.rowOffset..<(mapping.rowOffset + mapping.visibleRows) {
                canvas[column, row] = TerminalCell(glyph, style: style)
            }
        }
    }
}
