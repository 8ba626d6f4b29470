import TrellisCore
import TrellisProtocol

/// The user's scrolling in a state snapshot: the configuration, and what is in flight (a drag,
/// a finger down, each axis's released motion), so a restart resumes a fling mid-flight.
/// Written only when it differs from a new session's:
/// `{configuration: {…scroll.configure's keys}, tracking, dragVelocity: [dx, dy], finger?: [x, y],
///   drag?: {origin, startOffset, lastOffset, touchDown: [x, y], lastTime: seconds},
///   x?|y?: {phase, velocity, anchor, rate},
///   orthogonal?: {sections: [{id, offset, motion?: {phase, velocity, anchor, rate}}],
///                 drag?: {id, origin, startOffset, lastOffset, lastTime, velocity}, held?: id}}`
/// (orthogonal sections by identifier: their indexes are found again on restore).
enum ScrollStateCoding {
    static func json(_ p: ScrollDeceleration) -> JSONValue? {
        guard p != ScrollDeceleration() else { return nil }
        var members: [String: JSONValue] = ["configuration": ScrollWire.json(p.configuration), "tracking": .bool(p.tracking),
                                            "dragVelocity": WireEncoding.pair(p.dragVelocity)]
        if let finger = p.fingerInView { members["finger"] = WireEncoding.pair(finger) }
        if let d = p.drag {
            members["drag"] = .object(["origin": WireEncoding.pair(d.origin), "startOffset": WireEncoding.pair(d.startOffset),
                                       "lastOffset": WireEncoding.pair(d.lastOffset), "touchDown": WireEncoding.pair(d.touchDown),
                                       "lastTime": .number(d.lastTime)])
        }
        if let x = p.x { members["x"] = axis(x) }
        if let y = p.y { members["y"] = axis(y) }
        if p.orthogonal != OrthogonalScrolling() { members["orthogonal"] = orthogonal(p.orthogonal) }
        return .object(members)
    }

    private static func orthogonal(_ o: OrthogonalScrolling) -> JSONValue {
        var members: [String: JSONValue] = ["sections": .array(o.sections.sorted { $0.key < $1.key }.map { id, entry in
            var m: [String: JSONValue] = ["id": .string(id.rawValue), "offset": .number(entry.offset)]
            if let motion = entry.motion { m["motion"] = axis(motion) }
            return .object(m)
        })]
        if let d = o.drag {
            members["drag"] = .object(["id": .string(d.section.rawValue), "origin": .number(d.origin), "startOffset": .number(d.startOffset),
                                       "lastOffset": .number(d.lastOffset), "lastTime": .number(d.lastTime), "velocity": .number(d.velocity)])
        }
        if let held = o.held { members["held"] = .string(held.rawValue) }
        return .object(members)
    }

    private static func orthogonal(_ v: JSONValue, path: String) throws(ParamError) -> OrthogonalScrolling {
        try v.rejectUnknownKeys(allowed: ["sections", "drag", "held"], path: path)
        var o = OrthogonalScrolling()
        for (n, entry) in try v.requireArray("sections", in: path).enumerated() {
            let ep = "\(path).sections[\(n)]"
            try entry.rejectUnknownKeys(allowed: ["id", "offset", "motion"], path: ep)
            let id = SectionID(try entry.requireString("id", in: ep))
            let offset = try entry.requireNumber("offset", in: ep)
            guard offset.isFinite, abs(offset) <= 1e9 else {
                throw ParamError(path: "\(ep).offset", .mismatch(expected: "a number from -1e9 to 1e9", found: "\(offset)"))
            }
            let motion = try entry.optionalObject("motion", in: ep).map { a throws(ParamError) in try axis(a, path: "\(ep).motion") }
            o.sections[id] = OrthogonalScrolling.Section(offset: offset, motion: motion, index: 0)
        }
        if let d = try v.optionalObject("drag", in: path) {
            let dp = "\(path).drag"
            try d.rejectUnknownKeys(allowed: ["id", "origin", "startOffset", "lastOffset", "lastTime", "velocity"], path: dp)
            let id = SectionID(try d.requireString("id", in: dp))
            guard o.sections[id] != nil else {
                throw ParamError(path: "\(dp).id", .mismatch(expected: "the id of a section in \(path).sections", found: "\"\(id.rawValue)\""))
            }
            o.drag = OrthogonalScrolling.Drag(section: id, origin: try d.requireNumber("origin", in: dp), startOffset: try d.requireNumber("startOffset", in: dp),
                                              lastOffset: try d.requireNumber("lastOffset", in: dp), lastTime: try d.requireNumber("lastTime", in: dp),
                                              velocity: try d.requireNumber("velocity", in: dp))
        }
        if v.field("held") != nil {
            let id = SectionID(try v.requireString("held", in: path))
            guard o.sections[id] != nil else {
                throw ParamError(path: "\(path).held", .mismatch(expected: "the id of a section in \(path).sections", found: "\"\(id.rawValue)\""))
            }
            o.held = id
        }
        return o
    }

    private static func axis(_ a: AxisMotion) -> JSONValue {
        .object(["phase": .string(a.phase.rawValue), "velocity": .number(a.velocity), "anchor": .number(a.anchor), "rate": .number(a.rate)])
    }

    static func physics(_ v: JSONValue, path: String) throws(ParamError) -> ScrollDeceleration {
        try v.rejectUnknownKeys(allowed: ["configuration", "tracking", "dragVelocity", "finger", "drag", "x", "y", "orthogonal"], path: path)
        var p = ScrollDeceleration()
        let c = try v.requireObject("configuration", in: path)
        let cp = "\(path).configuration"
        try c.rejectUnknownKeys(allowed: ScrollWire.configurationKeys, path: cp)
        let rate: Double
        switch c.field("decelerationRate") {
        case .string("normal")?: rate = ScrollConfiguration.normalDecelerationRate
        case .string("fast")?: rate = ScrollConfiguration.fastDecelerationRate
        case .number(let n)? where ScrollConfiguration.decelerationRates.contains(n): rate = n
        default: throw ParamError(path: "\(cp).decelerationRate", .mismatch(expected: "\"normal\", \"fast\" or a number from 0.5 to 0.9999", found: "something else"))
        }
        p.configuration = ScrollConfiguration(
            bounces: try c.requireBool("bounces", in: cp), alwaysBounceVertical: try c.requireBool("alwaysBounceVertical", in: cp),
            alwaysBounceHorizontal: try c.requireBool("alwaysBounceHorizontal", in: cp),
            pagingEnabled: try c.requireBool("pagingEnabled", in: cp), decelerationRate: rate,
            scrollEnabled: try c.requireBool("scrollEnabled", in: cp))
        p.tracking = try v.requireBool("tracking", in: path)
        p.dragVelocity = try point(v, "dragVelocity", path)
        if v.field("finger") != nil { p.fingerInView = try point(v, "finger", path) }
        if let d = try v.optionalObject("drag", in: path) {
            let dp = "\(path).drag"
            try d.rejectUnknownKeys(allowed: ["origin", "startOffset", "lastOffset", "touchDown", "lastTime"], path: dp)
            p.drag = ScrollDeceleration.Drag(origin: try point(d, "origin", dp), startOffset: try point(d, "startOffset", dp),
                                        lastOffset: try point(d, "lastOffset", dp), lastTime: try d.requireNumber("lastTime", in: dp))
            if d.field("touchDown") != nil { p.drag?.touchDown = try point(d, "touchDown", dp) }
        }
        p.x = try v.optionalObject("x", in: path).map { a throws(ParamError) in try axis(a, path: "\(path).x") }
        p.y = try v.optionalObject("y", in: path).map { a throws(ParamError) in try axis(a, path: "\(path).y") }
        if let o = try v.optionalObject("orthogonal", in: path) { p.orthogonal = try orthogonal(o, path: "\(path).orthogonal") }
        return p
    }

    private static func axis(_ v: JSONValue, path: String) throws(ParamError) -> AxisMotion {
        try v.rejectUnknownKeys(allowed: ["phase", "velocity", "anchor", "rate"], path: path)
        let name = try v.requireString("phase", in: path)
        guard let phase = AxisMotion.Phase(rawValue: name) else {
            throw ParamError(path: "\(path).phase", .mismatch(expected: "decelerating, bouncing or settling", found: "\"\(name)\""))
        }
        let rate = try v.requireNumber("rate", in: path)
        guard ScrollConfiguration.decelerationRates.contains(rate) else {
            throw ParamError(path: "\(path).rate", .mismatch(expected: "a number from 0.5 to 0.9999", found: "\(rate)"))
        }
        return AxisMotion(phase: phase, velocity: try v.requireNumber("velocity", in: path),
                          anchor: try v.requireNumber("anchor", in: path), rate: rate)
    }

    private static func point(_ v: JSONValue, _ key: String, _ path: String) throws(ParamError) -> Point {
        let n = try v.requireNumbers(key, count: 2, labels: ["x", "y"], in: path)
        return Point(n[0], n[1])
    }
}
