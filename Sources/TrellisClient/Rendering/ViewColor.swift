import TrellisCore
import TrellisProtocol

/// An sRGB colour with 8-bit channels: what a view's `data.color` names, or a stable colour
/// derived from its reuse identifier when it names none. Shared by every renderer of scenes.
public struct ViewColor: Hashable, Sendable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red; self.green = green; self.blue = blue
    }

    /// Parses a colour name (`red`, `grey`, … see `named`), `#rgb` or `#rrggbb`, ignoring case
    /// and surrounding spaces; nil for anything else.
    public init?(parsing text: String) {
        let trimmed = Self.trimmed(text).lowercased()
        if let known = Self.named[trimmed] { self = known; return }
        guard trimmed.first == "#" else { return nil }
        let digits = trimmed.dropFirst().map { $0.hexDigitValue }
        guard !digits.contains(where: { $0 == nil }) else { return nil }
        let values = digits.map { UInt8($0!) }
        switch values.count {
        case 3: self.init(red: values[0] * 17, green: values[1] * 17, blue: values[2] * 17)
        case 6: self.init(red: values[0] << 4 | values[1], green: values[2] << 4 | values[3], blue: values[4] << 4 | values[5])
        default: return nil
        }
    }

    /// `#rrggbb`, lower case.
    public var hex: String {
        "#" + [red, green, blue].map { byte in
            let text = String(byte, radix: 16)
            return text.count == 1 ? "0" + text : text
        }.joined()
    }

    /// Relative luminance in 0…1 (Rec. 709 weights on the gamma-encoded channels: close enough
    /// to choose a readable label colour, which is all it is for).
    public var luminance: Double {
        (0.2126 * Double(red) + 0.7152 * Double(green) + 0.0722 * Double(blue)) / 255
    }

    /// The same hue, darker by `factor` (0 = black, 1 = unchanged): outlines of filled boxes.
    public func darkened(by factor: Double) -> ViewColor {
        let f = min(1, max(0, factor))
        func scale(_ c: UInt8) -> UInt8 { UInt8((Double(c) * f).rounded()) }
        return ViewColor(red: scale(red), green: scale(green), blue: scale(blue))
    }

    /// A colour that depends only on `key` (a reuse identifier), the same on every machine and
    /// in every run: FNV-1a of its UTF-8 bytes picks the hue; saturation and lightness are fixed
    /// so every such colour is a light mid-tone that outlines and labels stand out on. Swift's
    /// `Hasher` is seeded per process, hence a hash of our own.
    public static func hashed(_ key: String) -> ViewColor {
        var hash: UInt32 = 2_166_136_261
        for byte in key.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 16_777_619
        }
        return ViewColor(hue: Double(hash % 360), saturation: 0.55, lightness: 0.65)
    }

    /// The colour a view is drawn in: its item's `data.color` when that parses, else the colour
    /// hashed from its reuse identifier.
    public static func of(_ view: SceneView) -> ViewColor {
        if let text = view.data?.json["color"]?.stringValue, let color = ViewColor(parsing: text) { return color }
        return hashed(view.reuseIdentifier)
    }

    /// From HSL: hue in degrees, saturation and lightness in 0…1.
    public init(hue: Double, saturation: Double, lightness: Double) {
        let c = (1 - abs(2 * lightness - 1)) * saturation
        let h = (hue.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) / 60
        let x = c * (1 - abs(h.truncatingRemainder(dividingBy: 2) - 1))
        let (r, g, b): (Double, Double, Double)
        switch Int(h) {
        case 0: (r, g, b) = (c, x, 0)
        case 1: (r, g, b) = (x, c, 0)
        case 2: (r, g, b) = (0, c, x)
        case 3: (r, g, b) = (0, x, c)
        case 4: (r, g, b) = (x, 0, c)
        default: (r, g, b) = (c, 0, x)
        }
        let m = lightness - c / 2
        func byte(_ v: Double) -> UInt8 { UInt8(min(255, max(0, ((v + m) * 255).rounded()))) }
        self.init(red: byte(r), green: byte(g), blue: byte(b))
    }

    /// The names `data.color` may use: CSS's sixteen basic colours plus a few everyday ones,
    /// with CSS's values (so an SVG and a browser agree).
    public static let named: [String: ViewColor] = [
        "black": ViewColor(red: 0, green: 0, blue: 0),
        "white": ViewColor(red: 255, green: 255, blue: 255),
        "gray": ViewColor(red: 128, green: 128, blue: 128),
        "grey": ViewColor(red: 128, green: 128, blue: 128),
        "silver": ViewColor(red: 192, green: 192, blue: 192),
        "red": ViewColor(red: 255, green: 0, blue: 0),
        "maroon": ViewColor(red: 128, green: 0, blue: 0),
        "orange": ViewColor(red: 255, green: 165, blue: 0),
        "yellow": ViewColor(red: 255, green: 255, blue: 0),
        "olive": ViewColor(red: 128, green: 128, blue: 0),
        "lime": ViewColor(red: 0, green: 255, blue: 0),
        "green": ViewColor(red: 0, green: 128, blue: 0),
        "teal": ViewColor(red: 0, green: 128, blue: 128),
        "cyan": ViewColor(red: 0, green: 255, blue: 255),
        "aqua": ViewColor(red: 0, green: 255, blue: 255),
        "blue": ViewColor(red: 0, green: 0, blue: 255),
        "navy": ViewColor(red: 0, green: 0, blue: 128),
        "indigo": ViewColor(red: 75, green: 0, blue: 130),
        "purple": ViewColor(red: 128, green: 0, blue: 128),
        "magenta": ViewColor(red: 255, green: 0, blue: 255),
        "fuchsia": ViewColor(red: 255, green: 0, blue: 255),
        "pink": ViewColor(red: 255, green: 192, blue: 203),
        "brown": ViewColor(red: 165, green: 42, blue: 42),
    ]

    /// `text` without surrounding white space (TrellisClient does without Foundation).
    private static func trimmed(_ text: String) -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) }) else { return "" }
        return text[first...last]
    }
}
