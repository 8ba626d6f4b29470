#if canImport(Glibc)
import Glibc
#endif
import TrellisDynamics

/// How viewers draw the debug layer's shapes, by kind: one colour per concern (items blue,
/// boundaries orange, attachments purple, fields cyan, contacts red, scroll grey and yellow)
/// and, for the terminal, one glyph. Shared so the SVG, the terminal and the page agree.
public enum DebugStyle {
    public static func color(_ kind: DebugShape.Kind) -> String {
        switch kind {
        case .collision, .centerOfMass: "#0a84ff"
        case .velocity, .force: "#34c759"
        case .bounds, .content: "#8e8e93"
        case .boundary: "#ff9500"
        case .attachment, .anchor, .axis, .range: "#af52de"
        case .snap: "#ff2d55"
        case .field, .fieldArrow: "#32ade6"
        case .contact, .rubberBand: "#ff3b30"
        case .target: "#ffcc00"
        }
    }

    /// Outlines that are a region rather than a thing (dashed in the SVG and on the page).
    public static func isDashed(_ kind: DebugShape.Kind) -> Bool {
        switch kind {
        case .bounds, .content, .target, .field, .range, .axis: true
        default: false
        }
    }

    /// The terminal's character for a shape's lines (ASCII when the terminal shows no
    /// Unicode); points get `pointGlyph`, arrows end in `arrowHead`.
    public static func glyph(_ kind: DebugShape.Kind, unicode: Bool) -> Unicode.Scalar {
        switch kind {
        case .collision, .velocity, .force, .fieldArrow: unicode ? "·" : "."
        case .bounds, .content: unicode ? "┄" : "-"
        case .boundary: unicode ? "═" : "="
        case .attachment, .axis, .range: "~"
        case .field: unicode ? "░" : ":"
        case .rubberBand: unicode ? "≈" : "="
        case .target: unicode ? "┈" : "-"
        default: unicode ? "·" : "."
        }
    }

    public static func pointGlyph(_ kind: DebugShape.Kind, unicode: Bool) -> Unicode.Scalar {
        switch kind {
        case .contact: unicode ? "✶" : "*"
        case .centerOfMass: "+"
        case .anchor: "o"
        case .snap: unicode ? "◎" : "@"
        default: unicode ? "•" : "o"
        }
    }

    /// The head of an arrow pointing along (dx, dy) on screen (y down), one of eight.
    public static func arrowHead(dx: Double, dy: Double, unicode: Bool) -> Unicode.Scalar {
        let octant = Int(((atan2(dy, dx) / (Double.pi / 4)).rounded() + 8).truncatingRemainder(dividingBy: 8))
        let heads: [Unicode.Scalar] = unicode ? ["→", "↘", "↓", "↙", "←", "↖", "↑", "↗"] : [">", "\\", "v", "/", "<", "\\", "^", "/"]
        return heads[max(0, min(7, octant))]
    }
}
