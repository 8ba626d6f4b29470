/// Enumerated values on the command line (layouts, carousel styles, curves, behaviour kinds):
/// how help and messages list them, and the one a mistyped word most likely meant. The lists
/// themselves come from the registries that define them, never from here.
public enum Choices {
    /// `a, b or c` (`a or b`; `a`).
    public static func list(_ words: [String], conjunction: String = "or") -> String {
        guard words.count > 1 else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " \(conjunction) " + words.last!
    }

    /// `text` when it is one of `choices`; else a syntax error naming them, with the closest as
    /// a suggestion: `--style 'rotory': expected linear, rotary, … or custom; did you mean rotary?`.
    @discardableResult
    public static func check(_ text: String, among choices: [String], what: String) throws(SyntaxError) -> String {
        guard !choices.contains(text) else { return text }
        throw SyntaxError("\(what) '\(text)': expected \(list(choices))" + suggestion(for: text, among: choices))
    }

    /// `; did you mean X?` for the closest choice, or "" when none is close.
    public static func suggestion(for text: String, among choices: [String]) -> String {
        closest(to: text, among: choices).map { "; did you mean \($0)?" } ?? ""
    }

    /// The choice within a few edits of `text` (letter case does not count), the nearest first
    /// and the earlier on a tie; nil when none is that close. A few: one for words of up to
    /// three letters, two up to six, three beyond, so a guess stays a likely typo.
    public static func closest(to text: String, among choices: [String]) -> String? {
        let word = Array(text.lowercased())
        let allowed = word.count <= 3 ? 1 : word.count <= 6 ? 2 : 3
        var best: (choice: String, distance: Int)?
        for choice in choices {
            let d = distance(word, Array(choice.lowercased()))
            if d <= allowed, d < (best?.distance ?? .max) { best = (choice, d) }
        }
        return best?.choice
    }

    /// Edits (insert, delete, substitute, swap two neighbours) from `a` to `b`: optimal string
    /// alignment, so `rotory` → `rotary` is 1 and `cirlce` → `circle` is 1.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var before = [Int](), previous = Array(0...b.count), current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], before[j - 2] + 1)
                }
            }
            before = previous
            previous = current
        }
        return previous[b.count]
    }
}
