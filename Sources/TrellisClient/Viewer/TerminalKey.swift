/// A key the viewer acts on, decoded from what a terminal in raw mode sends.
public enum TerminalKey: Hashable, Sendable {
    case character(Unicode.Scalar)
    case up, down, left, right, pageUp, pageDown, home, end
    /// Shift+arrows (CSI 1;2 A…D as xterm sends them, or rxvt's CSI a…d): the fling keys.
    case shiftUp, shiftDown, shiftLeft, shiftRight
    /// Ctrl-C: raw mode turns off the terminal's own SIGINT, so it arrives as a byte.
    case interrupt
    case escape

    /// The keys in one read from the terminal. Escape sequences are taken whole from the
    /// chunk (a terminal writes each key's sequence at once); an ESC ending the chunk is the Esc key.
    public static func decode(_ bytes: [UInt8]) -> [TerminalKey] {
        var keys: [TerminalKey] = []
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            if byte == 0x1b {
                // CSI (ESC [) or SS3 (ESC O, what arrows send in application mode).
                guard i + 2 < bytes.count, bytes[i + 1] == UInt8(ascii: "[") || bytes[i + 1] == UInt8(ascii: "O") else {
                    keys.append(.escape)
                    i += 1
                    continue
                }
                var j = i + 2
                while j < bytes.count, (0x30...0x3f).contains(bytes[j]) { j += 1 }   // parameter bytes
                guard j < bytes.count else { i = bytes.count; break }
                let final = bytes[j]
                let parameters = String(decoding: bytes[(i + 2)..<j], as: UTF8.self)
                // xterm's modifier parameter: 1 + (shift 1 | alt 2 | ctrl 4); shift alone is 2.
                let shifted = parameters.split(separator: ";").dropFirst().first == "2"
                switch (final, parameters) {
                case (UInt8(ascii: "A"), _) where shifted, (UInt8(ascii: "a"), ""): keys.append(.shiftUp)
                case (UInt8(ascii: "B"), _) where shifted, (UInt8(ascii: "b"), ""): keys.append(.shiftDown)
                case (UInt8(ascii: "C"), _) where shifted, (UInt8(ascii: "c"), ""): keys.append(.shiftRight)
                case (UInt8(ascii: "D"), _) where shifted, (UInt8(ascii: "d"), ""): keys.append(.shiftLeft)
                case (UInt8(ascii: "A"), _): keys.append(.up)
                case (UInt8(ascii: "B"), _): keys.append(.down)
                case (UInt8(ascii: "C"), _): keys.append(.right)
                case (UInt8(ascii: "D"), _): keys.append(.left)
                case (UInt8(ascii: "H"), _): keys.append(.home)
                case (UInt8(ascii: "F"), _): keys.append(.end)
                case (UInt8(ascii: "~"), "5"): keys.append(.pageUp)
                case (UInt8(ascii: "~"), "6"): keys.append(.pageDown)
                case (UInt8(ascii: "~"), "1"), (UInt8(ascii: "~"), "7"): keys.append(.home)
                case (UInt8(ascii: "~"), "4"), (UInt8(ascii: "~"), "8"): keys.append(.end)
                default: break   // keys the viewer does not use
                }
                i = j + 1
                continue
            }
            if byte == 0x03 {
                keys.append(.interrupt)
            } else if byte < 0x80 {
                keys.append(.character(Unicode.Scalar(byte)))
            }
            // Other bytes (UTF-8 of non-ASCII keys) are not commands.
            i += 1
        }
        return keys
    }
}
