/// Splits one script line into words with the shell's quoting rules that scripts need, so a
/// line reads exactly as the same command typed after `trellis` in a shell.
///
/// - Words are separated by spaces and tabs.
/// - `'…'` keeps everything inside as it is; `"…"` too, except that `\"` and `\\` stand for
///   `"` and `\`. Quoted and unquoted parts next to each other join into one word
///   (`id="a b"` is `id=a b`); `""` is an empty word.
/// - Outside quotes, `\` keeps the next character as it is.
/// - `#` at the start of a word begins a comment that runs to the end of the line.
public enum ScriptTokenizer {
    public static func words(_ line: String) throws(SyntaxError) -> [String] {
        var words: [String] = []
        var current = ""
        // A word exists once anything, even an empty quoted string, has been read for it.
        var inWord = false
        var iterator = Array(line).makeIterator()
        while let c = iterator.next() {
            switch c {
            case " ", "\t", "\r":
                if inWord { words.append(current); current = ""; inWord = false }
            case "#" where !inWord:
                return words
            case "'":
                inWord = true
                var closed = false
                while let q = iterator.next() {
                    if q == "'" { closed = true; break }
                    current.append(q)
                }
                guard closed else { throw SyntaxError("unterminated single quote") }
            case "\"":
                inWord = true
                var closed = false
                while let q = iterator.next() {
                    if q == "\"" { closed = true; break }
                    if q == "\\" {
                        guard let next = iterator.next() else { break }
                        // Like sh: the backslash only escapes what would otherwise end or escape.
                        if next != "\"" && next != "\\" { current.append("\\") }
                        current.append(next)
                    } else {
                        current.append(q)
                    }
                }
                guard closed else { throw SyntaxError("unterminated double quote") }
            case "\\":
                inWord = true
                guard let next = iterator.next() else { throw SyntaxError("a backslash at the end of the line") }
                current.append(next)
            default:
                inWord = true
                current.append(c)
            }
        }
        if inWord { words.append(current) }
        return words
    }
}
