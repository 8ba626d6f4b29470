/// `trellis run --update`: an `expect` line that failed, rewritten with what the run found, as
/// snapshot-testing tools rewrite their snapshots. Only checks of equality (`KEY=V`, `KEY==V`)
/// take the found value; comparisons (`<`, `<=`, `>`, `>=`, `!=`), `tolerance=`, `absent` and
/// `scene == FILE` stay as written, since the run cannot know what a person meant by them.
public enum ExpectationUpdate {
    /// The line with the found values, or nil when none of its checks could take one (or
    /// nothing would change). `actual` is the failed test's `actual` (`visible=10 offset=0,40`).
    public static func rewrite(_ line: String, actual: String) -> String? {
        // A line with quotes is left alone: its words are not its spaces' pieces.
        guard !line.contains("\""), !line.contains("'") else { return nil }
        var found: [String: String] = [:]
        for token in actual.split(separator: " ") {
            guard let equals = token.firstIndex(of: "=") else { continue }
            let key = String(token[..<equals]), value = String(token[token.index(after: equals)...])
            guard !key.isEmpty, !value.isEmpty, !value.hasPrefix("("), found[key] == nil else { continue }
            found[key] = value
        }
        var changed = false
        // The separators are kept as they were; only words change.
        var pieces = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        for k in pieces.indices where k >= 2 {
            let word = pieces[k]
            guard let equals = word.firstIndex(of: "=") else { continue }
            let key = String(word[..<equals])
            let before = word.index(before: equals)
            // `<=`, `>=`, `!=`: a bound, not a value.
            if equals > word.startIndex, ["<", ">", "!"].contains(word[before]) { continue }
            let rest = word[word.index(after: equals)...]
            let doubled = rest.hasPrefix("=")
            guard key != "tolerance", let value = found[key] else { continue }
            let rewritten = key + (doubled ? "==" : "=") + value
            if rewritten != word {
                pieces[k] = rewritten
                changed = true
            }
        }
        return changed ? pieces.joined(separator: " ") : nil
    }
}
