/// Text made safe for XML content and attribute values (SVG pictures, JUnit reports).
public enum XMLText {
    /// The five special characters as entities; tab, newline and CR as character references
    /// (attribute normalisation would turn them into spaces); characters XML 1.0 cannot hold
    /// at all (other C0 controls, U+FFFE, U+FFFF) as U+FFFD, so the file always parses.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out += "&#\(scalar.value);"
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                out.unicodeScalars.append("\u{FFFD}")
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
