/// A plot's picture: its series against time as an SVG chart. Series that share a unit share
/// a panel (one y axis each, so points and radians are never drawn on one scale); the panels
/// stack over one time axis. Values grow upwards, as on any chart (so `center.y`, which grows
/// downwards on screen, rises as an item falls).
public struct PlotChart {
    public var title: String
    public var series: [PlotSeries]

    /// The picture's width, a panel's plotting height, and the margins around the plotting area.
    static let width = 760.0, panelHeight = 220.0
    static let left = 76.0, right = 24.0, top = 44.0, panelGap = 56.0, bottom = 52.0
    /// Line colours, in order (Tableau's ten, which stay apart for most colour-blind readers).
    static let palette = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"]

    public init(title: String, series: [PlotSeries]) {
        self.title = title
        self.series = series
    }

    /// The series grouped by unit, in the order their units first appear.
    var panels: [(unit: String, series: [Int])] {
        var panels: [(unit: String, series: [Int])] = []
        for (k, s) in series.enumerated() {
            if let p = panels.firstIndex(where: { $0.unit == s.property.unit }) { panels[p].series.append(k) } else { panels.append((s.property.unit, [k])) }
        }
        return panels
    }

    public func render() -> String {
        let panels = self.panels
        let plotWidth = Self.width - Self.left - Self.right
        let height = Self.top + Double(panels.count) * Self.panelHeight + Double(max(0, panels.count - 1)) * Self.panelGap + Self.bottom
        let times = series.flatMap(\.times)
        let x = AxisTicks(covering: times.min() ?? 0, times.max() ?? 1, target: 8)
        func px(_ t: Double) -> Double { Self.left + (t - x.lower) / (x.upper - x.lower) * plotWidth }

        var out = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(n(Self.width))" height="\(n(height))" viewBox="0 0 \(n(Self.width)) \(n(height))" font-family="sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(n(Self.left))" y="22" font-size="15" font-weight="bold">\(XMLText.escape(title))</text>

            """
        for (p, panel) in panels.enumerated() {
            let top = Self.top + Double(p) * (Self.panelHeight + Self.panelGap)
            let values = panel.series.flatMap { series[$0].values }
            let y = AxisTicks(covering: values.min() ?? 0, values.max() ?? 0, target: 5)
            func py(_ v: Double) -> Double { top + Self.panelHeight - (v - y.lower) / (y.upper - y.lower) * Self.panelHeight }
            let properties = Array(Set(panel.series.map { series[$0].property.rawValue })).sorted()
            let axisTitle = (properties.count == 1 ? properties[0] + " " : "") + "(\(panel.unit))"
            out += "<g class=\"panel\" data-unit=\"\(XMLText.escape(panel.unit))\">\n"
            // Grid and y ticks.
            for value in y.values {
                let yy = py(value)
                out += "<line x1=\"\(n(Self.left))\" y1=\"\(n(yy))\" x2=\"\(n(Self.left + plotWidth))\" y2=\"\(n(yy))\" stroke=\"#e4e4e4\"/>"
                out += "<text x=\"\(n(Self.left - 6))\" y=\"\(n(yy + 4))\" text-anchor=\"end\" class=\"y-tick\">\(y.label(value))</text>\n"
            }
            // x ticks under every panel, so each reads on its own.
            for t in x.values {
                let xx = px(t)
                out += "<line x1=\"\(n(xx))\" y1=\"\(n(top))\" x2=\"\(n(xx))\" y2=\"\(n(top + Self.panelHeight))\" stroke=\"#f0f0f0\"/>"
                out += "<text x=\"\(n(xx))\" y=\"\(n(top + Self.panelHeight + 16))\" text-anchor=\"middle\" class=\"x-tick\">\(x.label(t))</text>\n"
            }
            out += "<rect x=\"\(n(Self.left))\" y=\"\(n(top))\" width=\"\(n(plotWidth))\" height=\"\(n(Self.panelHeight))\" fill=\"none\" stroke=\"#888\"/>\n"
            out += "<text transform=\"translate(16 \(n(top + Self.panelHeight / 2))) rotate(-90)\" text-anchor=\"middle\" class=\"y-title\">\(XMLText.escape(axisTitle))</text>\n"
            if p == panels.count - 1 {
                out += "<text x=\"\(n(Self.left + plotWidth / 2))\" y=\"\(n(top + Self.panelHeight + 38))\" text-anchor=\"middle\" class=\"x-title\">time (s)</text>\n"
            }
            for (row, k) in panel.series.enumerated() {
                let s = series[k]
                let colour = Self.palette[k % Self.palette.count]
                let points = zip(s.times, s.values).map { "\(n(px($0))),\(n(py($1)))" }.joined(separator: " ")
                out += "<polyline class=\"series\" data-series=\"\(XMLText.escape(s.label))\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"1.6\" stroke-linejoin=\"round\" points=\"\(points)\"/>\n"
                // The legend, top right inside the panel.
                let ly = top + 14 + Double(row) * 16
                let lx = Self.left + plotWidth - 170
                out += "<line x1=\"\(n(lx))\" y1=\"\(n(ly - 4))\" x2=\"\(n(lx + 18))\" y2=\"\(n(ly - 4))\" stroke=\"\(colour)\" stroke-width=\"2.5\"/>"
                out += "<text x=\"\(n(lx + 24))\" y=\"\(n(ly))\" class=\"legend\">\(XMLText.escape(s.label))</text>\n"
            }
            out += "</g>\n"
        }
        out += "</svg>\n"
        return out
    }

    /// Coordinates to a hundredth of a point: finer than any screen, and short.
    private func n(_ value: Double) -> String { SVGRenderer.number((value * 100).rounded() / 100) }
}
