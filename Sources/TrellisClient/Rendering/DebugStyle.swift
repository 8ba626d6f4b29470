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

    /// The terminal's character for a shape's lines; points get `pointGlyph`.
    public static func glyph(_ kind: DebugShape.Kind) -> Character {
        switch kind {
        case .collision: "·"
        case .velocity, .force, .fieldArrow: "→"
        case .bounds, .content: "┄"
        case .boundary: "═"
        case .attachment, .axis, .range: "~"
        case .field: "░"
        case .rubberBand: "≈"
        case .target: "┈"
        default: "·"
        }
    }

    public static func pointGlyph(_ kind: DebugShape.Kind) -> Character {
        switch kind {
        case .contact: "✶"
        case .centerOfMass: "+"
        case .anchor: "o"
        case .snap: "◎"
        default: "•"
        }
    }
}
