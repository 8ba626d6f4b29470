/// The characters a box is drawn with, in one weight: lines, corners and diagonals.
public struct BoxGlyphs: Hashable, Sendable {
    public var horizontal: Unicode.Scalar, vertical: Unicode.Scalar
    public var topLeft: Unicode.Scalar, topRight: Unicode.Scalar, bottomLeft: Unicode.Scalar, bottomRight: Unicode.Scalar
    /// `/` and `\` as the eye sees them (y grows downwards).
    public var rising: Unicode.Scalar, falling: Unicode.Scalar
    /// Where two slanted edges meet.
    public var corner: Unicode.Scalar

    /// The glyphs for a view of `alpha`: solid lines when opaque, dashed when half faded, dotted
    /// when nearly gone (alpha as shade; the rasterizer dims the fainter two as well).
    public static func forAlpha(_ alpha: Double, unicode: Bool) -> BoxGlyphs {
        let weight = alpha >= 0.66 ? 0 : alpha >= 0.33 ? 1 : 2
        return unicode ? unicodeSets[weight] : asciiSets[weight]
    }

    /// The glyphs of the nearest views (`DepthCue.near`): heavier strokes.
    public static func heavy(unicode: Bool) -> BoxGlyphs { unicode ? unicodeHeavy : asciiHeavy }

    static let unicodeHeavy = BoxGlyphs(horizontal: "━", vertical: "┃", topLeft: "┏", topRight: "┓", bottomLeft: "┗", bottomRight: "┛",
                                        rising: "╱", falling: "╲", corner: "╋")
    static let asciiHeavy = BoxGlyphs(horizontal: "=", vertical: "|", topLeft: "#", topRight: "#", bottomLeft: "#", bottomRight: "#",
                                      rising: "/", falling: "\\", corner: "#")

    static let unicodeSets: [BoxGlyphs] = [
        BoxGlyphs(horizontal: "─", vertical: "│", topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘",
                  rising: "╱", falling: "╲", corner: "+"),
        BoxGlyphs(horizontal: "╌", vertical: "╎", topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘",
                  rising: "╱", falling: "╲", corner: "+"),
        BoxGlyphs(horizontal: "·", vertical: "·", topLeft: "·", topRight: "·", bottomLeft: "·", bottomRight: "·",
                  rising: "·", falling: "·", corner: "·"),
    ]

    static let asciiSets: [BoxGlyphs] = [
        BoxGlyphs(horizontal: "-", vertical: "|", topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+",
                  rising: "/", falling: "\\", corner: "+"),
        BoxGlyphs(horizontal: "~", vertical: ":", topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+",
                  rising: "/", falling: "\\", corner: "+"),
        BoxGlyphs(horizontal: ".", vertical: ".", topLeft: ".", topRight: ".", bottomLeft: ".", bottomRight: ".",
                  rising: ".", falling: ".", corner: "."),
    ]

    /// True when the locale says the terminal speaks UTF-8 (LC_ALL, then LC_CTYPE, then LANG,
    /// the order setlocale uses); box-drawing characters need it.
    public static func terminalSpeaksUTF8(_ environment: [String: String]) -> Bool {
        for key in ["LC_ALL", "LC_CTYPE", "LANG"] {
            if let value = environment[key], !value.isEmpty {
                let lowered = value.lowercased()
                return lowered.contains("utf-8") || lowered.contains("utf8")
            }
        }
        return false
    }
}
