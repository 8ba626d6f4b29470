/// A plot's numbers as CSV (RFC 4180): a `time` column in seconds, then one column per series
/// headed by its label and unit, one row per sample; numbers in their exact shortest form.
public enum PlotCSV {
    public static func text(_ series: [PlotSeries]) -> String {
        var out = (["time (s)"] + series.map { "\($0.label) (\($0.property.unit))" }).map(field).joined(separator: ",") + "\n"
        let rows = series.map(\.times.count).max() ?? 0
        for r in 0..<rows {
            let time = series.first(where: { $0.times.count > r })?.times[r] ?? 0
            var cells = [JSONNumberText.format(time)]
            for s in series { cells.append(r < s.values.count ? JSONNumberText.format(s.values[r]) : "") }
            out += cells.joined(separator: ",") + "\n"
        }
        return out
    }

    /// A header cell quoted when it holds a comma, a quote or a line end (an id may).
    private static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingAll("\"", with: "\"\"") + "\""
    }
}
