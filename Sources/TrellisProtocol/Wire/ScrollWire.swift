import TrellisCore

/// The scroll settings and state on the wire (scroll.configure, session.create's `scroll`,
/// gesture.pan / gesture.touch replies, session.info's `scroll`).
public enum ScrollWire {
    public static let configurationKeys = ["bounces", "alwaysBounceVertical", "alwaysBounceHorizontal", "pagingEnabled",
                                           "decelerationRate", "scrollEnabled"]

    /// `base` with the keys present in `object` (at `path`) changed; unknown keys and values out
    /// of range refused.
    public static func configuration(_ object: JSONValue, path: String, base: ScrollConfiguration) throws(ParamError) -> ScrollConfiguration {
        var c = base
        try object.rejectUnknownKeys(allowed: configurationKeys + (path == "params" ? ["session"] : []), path: path)
        if let v = try object.optionalBool("bounces", in: path) { c.bounces = v }
        if let v = try object.optionalBool("alwaysBounceVertical", in: path) { c.alwaysBounceVertical = v }
        if let v = try object.optionalBool("alwaysBounceHorizontal", in: path) { c.alwaysBounceHorizontal = v }
        if let v = try object.optionalBool("pagingEnabled", in: path) { c.pagingEnabled = v }
        if let v = try object.optionalBool("scrollEnabled", in: path) { c.scrollEnabled = v }
        switch object.field("decelerationRate") {
        case nil: break
        case .string("normal")?: c.decelerationRate = ScrollConfiguration.normalDecelerationRate
        case .string("fast")?: c.decelerationRate = ScrollConfiguration.fastDecelerationRate
        case .number(let n)? where ScrollConfiguration.decelerationRates.contains(n): c.decelerationRate = n
        case let other?:
            throw ParamError(path: "\(path).decelerationRate", .mismatch(expected: "\"normal\" (0.998 per ms), \"fast\" (0.99 per ms) or a number from 0.5 to 0.9999 (velocity kept per millisecond)", found: other.kindDescription == "number" ? "\(other)" : other.kindDescription))
        }
        return c
    }

    /// The settings' wire object (scroll.configure's reply, session.info's `scroll.configuration`).
    public static func json(_ c: ScrollConfiguration) -> JSONValue {
        let rate: JSONValue = c.decelerationRate == ScrollConfiguration.normalDecelerationRate ? .string("normal")
            : c.decelerationRate == ScrollConfiguration.fastDecelerationRate ? .string("fast") : .number(c.decelerationRate)
        return .object(["bounces": .bool(c.bounces), "alwaysBounceVertical": .bool(c.alwaysBounceVertical),
                        "alwaysBounceHorizontal": .bool(c.alwaysBounceHorizontal), "pagingEnabled": .bool(c.pagingEnabled),
                        "decelerationRate": rate, "scrollEnabled": .bool(c.scrollEnabled)])
    }

    /// The offset on screen, its velocity, the user's scrolling state, the settings and the
    /// layout's current item.
    public static func state(_ view: CollectionView) -> JSONValue {
        let p = view.scrollDeceleration
        var state: [String: JSONValue] = ["contentOffset": WireEncoding.pair(view.presentationContentOffset),
                                          "velocity": WireEncoding.pair(view.scrollVelocity),
                                          "dragging": .bool(p.dragging), "decelerating": .bool(p.decelerating),
                                          "bouncing": .bool(p.bouncing), "tracking": .bool(p.tracking),
                                          "configuration": json(p.configuration)]
        // Only a layout with orthogonal sections scrolled across has the key.
        let across = view.orthogonalScrolling
        if !across.sections.isEmpty {
            state["orthogonal"] = .array(across.sections.map { id, entry -> (Int, JSONValue) in
                var m: [String: JSONValue] = ["section": .number(Double(entry.index)), "id": .string(id.rawValue), "offset": .number(entry.offset),
                                              "moving": .bool(entry.motion != nil), "dragging": .bool(across.drag?.section == id)]
                if let motion = entry.motion { m["velocity"] = .number(motion.velocity) }
                return (entry.index, .object(m))
            }.sorted { $0.0 < $1.0 }.map(\.1))
        }
        // Only layouts with a current item (carousels, snapping layouts) have the key.
        if let current = view.layout.currentItem {
            state["currentItem"] = .array([.number(Double(current.section)), .number(Double(current.item))])
        }
        return .object(state)
    }
}
