/// A colour a terminal shows: an entry of xterm's 256-colour palette or one of the 16 ANSI
/// colours, the nearest to a `ViewColor` that the terminal supports.
public enum TerminalColor: Hashable, Sendable {
    /// xterm's 256-colour palette (16 system colours, a 6×6×6 cube, 24 greys).
    case palette(UInt8)
    /// The 16 ANSI colours: 0–7 normal, 8–15 bright.
    case ansi(UInt8)

    /// The nearest colour at `depth`; nil when the terminal shows no colour.
    public init?(_ rgb: ViewColor, depth: ColorDepth) {
        switch depth {
        case .none: return nil
        case .ansi16: self = .ansi(Self.nearestANSI(rgb))
        case .palette256: self = .palette(Self.nearestPalette(rgb))
        }
    }

    /// The SGR parameters that set it as the foreground colour.
    public var foregroundParameters: String {
        switch self {
        case .palette(let index): return "38;5;\(index)"
        case .ansi(let index): return index < 8 ? "\(30 + Int(index))" : "\(90 + Int(index) - 8)"
        }
    }

    /// The cube's six levels per channel, as xterm defines them.
    static let cubeLevels: [Int] = [0, 95, 135, 175, 215, 255]

    /// The nearest of the cube (16–231) and the grey ramp (232–255); the 16 system colours are
    /// skipped because terminals let users redefine them.
    static func nearestPalette(_ rgb: ViewColor) -> UInt8 {
        func level(_ v: UInt8) -> Int {
            var best = 0
            for (i, l) in cubeLevels.enumerated() where abs(l - Int(v)) < abs(cubeLevels[best] - Int(v)) { best = i }
            return best
        }
        let (r, g, b) = (level(rgb.red), level(rgb.green), level(rgb.blue))
        let cube = ViewColor(red: UInt8(cubeLevels[r]), green: UInt8(cubeLevels[g]), blue: UInt8(cubeLevels[b]))
        let average = (Int(rgb.red) + Int(rgb.green) + Int(rgb.blue)) / 3
        let greyStep = max(0, min(23, (average - 8 + 5) / 10))
        let greyValue = UInt8(8 + 10 * greyStep)
        let grey = ViewColor(red: greyValue, green: greyValue, blue: greyValue)
        if distance(grey, rgb) < distance(cube, rgb) { return UInt8(232 + greyStep) }
        return UInt8(16 + 36 * r + 6 * g + b)
    }

    /// xterm's default values of the 16 ANSI colours.
    static let ansiValues: [ViewColor] = [
        ViewColor(red: 0, green: 0, blue: 0), ViewColor(red: 205, green: 0, blue: 0), ViewColor(red: 0, green: 205, blue: 0), ViewColor(red: 205, green: 205, blue: 0),
        ViewColor(red: 0, green: 0, blue: 238), ViewColor(red: 205, green: 0, blue: 205), ViewColor(red: 0, green: 205, blue: 205), ViewColor(red: 229, green: 229, blue: 229),
        ViewColor(red: 127, green: 127, blue: 127), ViewColor(red: 255, green: 0, blue: 0), ViewColor(red: 0, green: 255, blue: 0), ViewColor(red: 255, green: 255, blue: 0),
        ViewColor(red: 92, green: 92, blue: 255), ViewColor(red: 255, green: 0, blue: 255), ViewColor(red: 0, green: 255, blue: 255), ViewColor(red: 255, green: 255, blue: 255),
    ]

    /// Squared distance with the 2-4-3 channel weights (green counts most to the eye): cheap
    /// and good enough to choose among palette entries.
    static func distance(_ a: ViewColor, _ b: ViewColor) -> Int {
        let dr = Int(a.red) - Int(b.red), dg = Int(a.green) - Int(b.green), db = Int(a.blue) - Int(b.blue)
        return 2 * dr * dr + 4 * dg * dg + 3 * db * db
    }

    static func nearestANSI(_ rgb: ViewColor) -> UInt8 {
        var best = 0
        for (i, value) in ansiValues.enumerated() where distance(value, rgb) < distance(ansiValues[best], rgb) { best = i }
        return UInt8(best)
    }
}

/// How many colours the terminal shows, read from the environment as terminal programs do.
public enum ColorDepth: Hashable, Sendable {
    case none, ansi16, palette256

    /// `NO_COLOR` (no-color.org) or `TERM=dumb` turn colour off; `COLORTERM` or a `TERM` naming
    /// 256 colours (xterm-256color, tmux-256color) give the palette; anything else the 16 ANSI colours.
    public static func detect(_ environment: [String: String]) -> ColorDepth {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .none }
        let term = environment["TERM"] ?? ""
        if term == "dumb" { return .none }
        if let colorTerm = environment["COLORTERM"], !colorTerm.isEmpty { return .palette256 }
        return term.contains("256") ? .palette256 : .ansi16
    }
}
