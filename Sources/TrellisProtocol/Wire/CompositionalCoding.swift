import TrellisCore

/// A compositional layout's tree to and from JSON (PROTOCOL.md, "Compositional layout"): sizes
/// `{"width": {"fractionalWidth": 0.5}, "height": {"absolute": 44}}`, insets `[top, leading,
/// bottom, trailing]`, spacing `{"fixed": 10}` or `{"flexible": 10}`, groups with an
/// `arrangement`. Every refusal names the path of the value in the description
/// (`params.layout.sections[1].group.subitems[0].size.width`) and changes nothing.
public enum CompositionalCoding {
    /// The documented limits of a description.
    public enum Limits {
        /// Section descriptions in one layout.
        public static let sections = 100
        /// Groups inside groups, the section's group being the first level.
        public static let depth = 8
        /// Items, groups, supplementary and decoration items in all, over every section.
        public static let nodes = 2_000
        /// A group's `count`, and custom frames in one group.
        public static let count = 1_000
        /// A fraction of a container (above 0).
        public static let fraction: ClosedRange<Double> = 0...100
        /// Absolute and estimated lengths (above 0), insets, spacing and offsets (either sign for insets and offsets).
        public static let length = layoutLengthLimit
        /// z-indexes.
        public static let zIndex: ClosedRange<Double> = -10_000...10_000
    }

    // MARK: Decoding

    public static func sections(_ v: JSONValue, path: String) throws(ParamError) -> [CompositionalSection] {
        guard case .array(let list) = v else { throw ParamError(path: path, .mismatch(expected: "an array of section descriptions", found: v.kindDescription)) }
        guard !list.isEmpty, list.count <= Limits.sections else {
            throw ParamError(path: path, .mismatch(expected: "1 to \(Limits.sections) section descriptions", found: "\(list.count)"))
        }
        var reader = Reader()
        var result: [CompositionalSection] = []
        var names: Set<String> = []
        for (i, s) in list.enumerated() {
            let section = try reader.section(s, path: "\(path)[\(i)]")
            if let name = section.name, !names.insert(name).inserted {
                throw ParamError(path: "\(path)[\(i)].name", .mismatch(expected: "a name no other section description has", found: "\"\(name)\""))
            }
            result.append(section)
        }
        return result
    }

    public static func rule(_ v: JSONValue, path: String) throws(ParamError) -> CompositionalSectionRule {
        let members = try v.requireObjectMembers(path: path)
        try v.rejectUnknownKeys(allowed: ["rule", "map", "fallback"], path: path)
        let name = try v.requireString("rule", in: path)
        switch name {
        case "byIndex", "cycling":
            if members["map"] != nil || members["fallback"] != nil {
                throw ParamError(path: path, .refused("\"map\" and \"fallback\" go with \"rule\": \"byIdentifier\" only"))
            }
            return name == "byIndex" ? .byIndex : .cycling
        case "byIdentifier":
            let map = try v.requireObject("map", in: path)
            var result: [String: String] = [:]
            for (id, target) in try map.requireObjectMembers(path: "\(path).map") {
                guard case .string(let s) = target else {
                    throw ParamError(path: "\(path).map.\(id)", .mismatch(expected: "the name of a section description", found: target.kindDescription))
                }
                result[id] = s
            }
            var fallback: String?
            if let f = members["fallback"], f != .null {
                guard case .string(let s) = f else { throw ParamError(path: "\(path).fallback", .mismatch(expected: "the name of a section description", found: f.kindDescription)) }
                fallback = s
            }
            return .byIdentifier(result, fallback: fallback)
        default:
            throw ParamError(path: "\(path).rule", .mismatch(expected: "one of \"byIndex\", \"cycling\", \"byIdentifier\"", found: "\"\(name)\""))
        }
    }

    public static func list(_ v: JSONValue, path: String) throws(ParamError) -> CompositionalListConfiguration {
        try v.rejectUnknownKeys(allowed: ["appearance", "headerMode", "footerMode", "rowHeight"], path: path)
        let members = try v.requireObjectMembers(path: path)
        func choice<E: RawRepresentable & CaseIterable>(_ key: String, _: E.Type, default d: E) throws(ParamError) -> E where E.RawValue == String {
            guard let f = members[key], f != .null else { return d }
            guard case .string(let s) = f, let e = E(rawValue: s) else {
                throw ParamError(path: "\(path).\(key)", .mismatch(expected: "one of " + E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "), found: f.kindDescription))
            }
            return e
        }
        var reader = Reader()
        return CompositionalListConfiguration(appearance: try choice("appearance", CompositionalListConfiguration.Appearance.self, default: .plain),
                                              headerMode: try choice("headerMode", CompositionalListConfiguration.HeaderMode.self, default: .none),
                                              footerMode: try choice("footerMode", CompositionalListConfiguration.HeaderMode.self, default: .none),
                                              rowHeight: try reader.length(members["rowHeight"], "\(path).rowHeight", default: 44, positive: true))
    }

    /// Reads one description, counting nodes and depth.
    struct Reader {
        var nodes = 0

        mutating func node(_ path: String) throws(ParamError) {
            nodes += 1
            if nodes > Limits.nodes {
                throw ParamError(path: path, .refused("a description holds at most \(Limits.nodes) items, groups and supplementary items in all"))
            }
        }

        mutating func section(_ v: JSONValue, path: String) throws(ParamError) -> CompositionalSection {
            try v.rejectUnknownKeys(allowed: ["name", "group", "contentInsets", "interGroupSpacing", "orthogonalScrollingBehavior",
                                              "boundarySupplementaryItems", "decorationItems", "visibleItemsEffect"], path: path)
            let m = try v.requireObjectMembers(path: path)
            var name: String?
            if let n = m["name"], n != .null {
                guard case .string(let s) = n, !s.isEmpty else { throw ParamError(path: "\(path).name", .mismatch(expected: "a non-empty string", found: n.kindDescription)) }
                name = s
            }
            guard let g = m["group"], g != .null else { throw ParamError(path: "\(path).group", .missing(expected: "a group")) }
            let group = try self.group(g, path: "\(path).group", depth: 1, container: (false, false))
            let insets = try self.insets(m["contentInsets"], "\(path).contentInsets")
            var behavior = OrthogonalScrollingBehavior.none
            if let b = m["orthogonalScrollingBehavior"], b != .null {
                guard case .string(let s) = b, let e = OrthogonalScrollingBehavior(rawValue: s) else {
                    throw ParamError(path: "\(path).orthogonalScrollingBehavior",
                                     .mismatch(expected: "one of " + OrthogonalScrollingBehavior.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "), found: b.kindDescription))
                }
                behavior = e
            }
            var boundary: [CompositionalBoundaryItem] = []
            for (i, b) in try array(m["boundarySupplementaryItems"], "\(path).boundarySupplementaryItems").enumerated() {
                boundary.append(try boundaryItem(b, path: "\(path).boundarySupplementaryItems[\(i)]"))
            }
            var decorations: [CompositionalDecorationItem] = []
            for (i, d) in try array(m["decorationItems"], "\(path).decorationItems").enumerated() {
                decorations.append(try decoration(d, path: "\(path).decorationItems[\(i)]"))
            }
            var effect: CompositionalVisibleItemsEffect?
            if let e = m["visibleItemsEffect"], e != .null {
                guard behavior != .none else {
                    throw ParamError(path: "\(path).visibleItemsEffect", .refused("only an orthogonal section has a visible-items effect: give the section an orthogonalScrollingBehavior other than \"none\", or remove the effect"))
                }
                effect = try visibleItemsEffect(e, path: "\(path).visibleItemsEffect")
            }
            return CompositionalSection(name: name, group: group, contentInsets: insets,
                                        interGroupSpacing: try length(m["interGroupSpacing"], "\(path).interGroupSpacing", default: 0, positive: false),
                                        orthogonalScrollingBehavior: behavior, boundaryItems: boundary, decorationItems: decorations,
                                        visibleItemsEffect: effect)
        }

        /// `{"scale": {"min": 0.7}, "alpha": {"min": 0.5}, "distance": 200}`: minimums in 0…1,
        /// reached `distance` points from the band's centre (half the band when absent).
        func visibleItemsEffect(_ v: JSONValue, path: String) throws(ParamError) -> CompositionalVisibleItemsEffect {
            try v.rejectUnknownKeys(allowed: ["scale", "alpha", "distance"], path: path)
            let m = try v.requireObjectMembers(path: path)
            func minimum(_ key: String) throws(ParamError) -> Double {
                guard let f = m[key], f != .null else { return 1 }
                try f.rejectUnknownKeys(allowed: ["min"], path: "\(path).\(key)")
                let inner = try f.requireObjectMembers(path: "\(path).\(key)")
                guard let n = inner["min"] else { throw ParamError(path: "\(path).\(key).min", .missing(expected: "a number from 0 to 1")) }
                guard case .number(let x) = n, x.isFinite, x >= 0, x <= 1 else {
                    throw ParamError(path: "\(path).\(key).min", .mismatch(expected: "a number from 0 to 1", found: n.kindDescription == "number" ? "\(n)" : n.kindDescription))
                }
                return x
            }
            var distance: Double?
            if let d = m["distance"], d != .null { distance = try length(d, "\(path).distance", default: 0, positive: true) }
            return CompositionalVisibleItemsEffect(minimumScale: try minimum("scale"), minimumAlpha: try minimum("alpha"), distance: distance)
        }

        /// `container`: whether the container's width and height are estimated (self-sizing), so
        /// that a fraction of them has nothing to be a fraction of.
        mutating func group(_ v: JSONValue, path: String, depth: Int, container: (Bool, Bool)) throws(ParamError) -> CompositionalGroup {
            try node(path)
            guard depth <= Limits.depth else { throw ParamError(path: path, .refused("groups nest at most \(Limits.depth) deep")) }
            try v.rejectUnknownKeys(allowed: ["arrangement", "size", "subitems", "count", "interItemSpacing", "contentInsets", "edgeSpacing", "frames"], path: path)
            let m = try v.requireObjectMembers(path: path)
            let arrangementName = try v.requireString("arrangement", in: path)
            let size = try self.size(m["size"], "\(path).size", container: container)
            let inner = (size.width.isEstimated, size.height.isEstimated)
            var arrangement: CompositionalGroupArrangement
            var subitems: [CompositionalSubitem] = []
            var count: Int?
            var adaptiveCount: CompositionalAdaptiveCount?
            switch arrangementName {
            case "horizontal", "vertical":
                arrangement = arrangementName == "horizontal" ? .horizontal : .vertical
                if m["frames"] != nil { throw ParamError(path: "\(path).frames", .refused("\"frames\" go with \"arrangement\": \"custom\" only")) }
                let list = try array(m["subitems"], "\(path).subitems")
                guard !list.isEmpty else { throw ParamError(path: "\(path).subitems", .mismatch(expected: "at least 1 subitem", found: "none")) }
                for (i, s) in list.enumerated() {
                    let p = "\(path).subitems[\(i)]"
                    if s.field("arrangement") != nil { subitems.append(.group(try group(s, path: p, depth: depth + 1, container: inner))) }
                    else { subitems.append(.item(try item(s, path: p, container: inner))) }
                }
                if case .object? = m["count"] {
                    adaptiveCount = try self.adaptiveCount(m["count"]!, "\(path).count")
                    count = adaptiveCount?.otherwise
                    if list.count != 1 { throw ParamError(path: "\(path).subitems", .mismatch(expected: "exactly 1 subitem with \"count\"", found: "\(list.count)")) }
                } else if let c = m["count"], c != .null {
                    count = try wholeCount(c, "\(path).count")
                    if list.count != 1 { throw ParamError(path: "\(path).subitems", .mismatch(expected: "exactly 1 subitem with \"count\"", found: "\(list.count)")) }
                }
                // A subitem with no length along the group's axis would repeat for ever.
                if count == nil {
                    for (i, s) in subitems.enumerated() {
                        let along = arrangement == .horizontal ? s.size.width : s.size.height
                        if case .absolute(let a) = along, a <= 0 { throw zero("\(path).subitems[\(i)].size.\(arrangement == .horizontal ? "width" : "height")") }
                    }
                }
            case "custom":
                if m["subitems"] != nil { throw ParamError(path: "\(path).subitems", .refused("a custom group places cells at its \"frames\"; it has no subitems")) }
                var frames: [CompositionalCustomFrame] = []
                let list = try array(m["frames"], "\(path).frames")
                guard !list.isEmpty, list.count <= Limits.count else {
                    throw ParamError(path: "\(path).frames", .mismatch(expected: "1 to \(Limits.count) frames", found: "\(list.count)"))
                }
                for (i, f) in list.enumerated() {
                    let p = "\(path).frames[\(i)]"
                    try f.rejectUnknownKeys(allowed: ["frame", "zIndex"], path: p)
                    let r = try f.requireNumbers("frame", count: 4, labels: ["x", "y", "width", "height"], in: p)
                    guard r.allSatisfy({ $0.isFinite && abs($0) <= Limits.length }), r[2] > 0, r[3] > 0 else {
                        throw ParamError(path: "\(p).frame", .mismatch(expected: "x and y within ±\(Int(Limits.length)) and a positive width and height", found: "[\(r.map { "\($0)" }.joined(separator: ", "))]"))
                    }
                    frames.append(CompositionalCustomFrame(frame: Rect(x: r[0], y: r[1], width: r[2], height: r[3]),
                                                           zIndex: try zIndex(f.field("zIndex"), "\(p).zIndex", default: 0)))
                }
                arrangement = .custom(frames)
            default:
                throw ParamError(path: "\(path).arrangement", .mismatch(expected: "one of \"horizontal\", \"vertical\", \"custom\"", found: "\"\(arrangementName)\""))
            }
            let insets = try self.insets(m["contentInsets"], "\(path).contentInsets")
            try checkInsets(insets, size: size, path: path)
            return CompositionalGroup(size: size, arrangement: arrangement, subitems: subitems, count: count,
                                      interItemSpacing: try spacing(m["interItemSpacing"], "\(path).interItemSpacing") ?? .fixed(0),
                                      contentInsets: insets, edgeSpacing: try edgeSpacing(m["edgeSpacing"], "\(path).edgeSpacing"),
                                      adaptiveCount: adaptiveCount)
        }

        func wholeCount(_ c: JSONValue, _ path: String) throws(ParamError) -> Int {
            guard case .number(let n) = c, n == n.rounded(), n >= 1, n <= Double(Limits.count) else {
                throw ParamError(path: path, .mismatch(expected: "a whole number from 1 to \(Limits.count)", found: c.kindDescription == "number" ? "\(c)" : c.kindDescription))
            }
            return Int(n)
        }

        /// `{"byWidth": [{"above": w, "count": n}, …], "otherwise": n}`: a count by the view's width.
        func adaptiveCount(_ v: JSONValue, _ path: String) throws(ParamError) -> CompositionalAdaptiveCount {
            try v.rejectUnknownKeys(allowed: ["byWidth", "otherwise"], path: path)
            guard let otherwise = v.field("otherwise") else {
                throw ParamError(path: "\(path).otherwise", .mismatch(expected: "the count when the width passes no step", found: "nothing"))
            }
            let steps = try array(v.field("byWidth"), "\(path).byWidth")
            guard !steps.isEmpty, steps.count <= 16 else {
                throw ParamError(path: "\(path).byWidth", .mismatch(expected: "1 to 16 steps {\"above\": width, \"count\": n}", found: "\(steps.count)"))
            }
            var list: [CompositionalAdaptiveCount.Step] = []
            for (i, step) in steps.enumerated() {
                let p = "\(path).byWidth[\(i)]"
                try step.rejectUnknownKeys(allowed: ["above", "count"], path: p)
                let above = try step.requireNumber("above", in: p)
                guard above.isFinite, above >= 0, above <= Limits.length else {
                    throw ParamError(path: "\(p).above", .mismatch(expected: "a width from 0 to \(Int(Limits.length))", found: "\(above)"))
                }
                guard !list.contains(where: { $0.above == above }) else {
                    throw ParamError(path: "\(p).above", .refused("two steps above \(above)"))
                }
                guard let n = step.field("count") else { throw ParamError(path: "\(p).count", .mismatch(expected: "a whole number from 1 to \(Limits.count)", found: "nothing")) }
                list.append(CompositionalAdaptiveCount.Step(above: above, count: try wholeCount(n, "\(p).count")))
            }
            return CompositionalAdaptiveCount(steps: list, otherwise: try wholeCount(otherwise, "\(path).otherwise"))
        }

        mutating func item(_ v: JSONValue, path: String, container: (Bool, Bool)) throws(ParamError) -> CompositionalItem {
            try node(path)
            try v.rejectUnknownKeys(allowed: ["size", "contentInsets", "edgeSpacing", "supplementaryItems"], path: path)
            let m = try v.requireObjectMembers(path: path)
            let size = try self.size(m["size"], "\(path).size", container: container)
            let insets = try self.insets(m["contentInsets"], "\(path).contentInsets")
            try checkInsets(insets, size: size, path: path)
            var supplementaries: [CompositionalSupplementaryItem] = []
            var kinds: Set<String> = []
            for (i, s) in try array(m["supplementaryItems"], "\(path).supplementaryItems").enumerated() {
                let p = "\(path).supplementaryItems[\(i)]"
                let supp = try supplementary(s, path: p, host: (size.width.isEstimated, size.height.isEstimated))
                if !kinds.insert(supp.kind.rawValue).inserted {
                    throw ParamError(path: "\(p).kind", .mismatch(expected: "a kind no other supplementary item of this item has", found: "\"\(supp.kind.rawValue)\""))
                }
                supplementaries.append(supp)
            }
            return CompositionalItem(size: size, contentInsets: insets, edgeSpacing: try edgeSpacing(m["edgeSpacing"], "\(path).edgeSpacing"),
                                     supplementaryItems: supplementaries)
        }

        mutating func supplementary(_ v: JSONValue, path: String, host: (Bool, Bool)) throws(ParamError) -> CompositionalSupplementaryItem {
            try node(path)
            try v.rejectUnknownKeys(allowed: ["kind", "size", "edges", "absoluteOffset", "fractionalOffset", "zIndex"], path: path)
            let m = try v.requireObjectMembers(path: path)
            let kind = try self.kind(v, path)
            var edges: CompositionalRectEdges = []
            for (i, e) in try array(m["edges"], "\(path).edges").enumerated() {
                guard case .string(let s) = e, let edge = CompositionalRectEdges.names.first(where: { $0.0 == s })?.1 else {
                    throw ParamError(path: "\(path).edges[\(i)]", .mismatch(expected: "one of \"top\", \"leading\", \"bottom\", \"trailing\"", found: e.kindDescription))
                }
                edges.insert(edge)
            }
            let absolute = try point(m["absoluteOffset"], "\(path).absoluteOffset")
            let fractional = try point(m["fractionalOffset"], "\(path).fractionalOffset")
            if absolute != nil, fractional != nil { throw ParamError(path: path, .refused("give \"absoluteOffset\" or \"fractionalOffset\", not both")) }
            return CompositionalSupplementaryItem(kind: kind, size: try size(m["size"], "\(path).size", container: host),
                                                  anchor: CompositionalAnchor(edges: edges, offset: fractional ?? absolute ?? .zero, isFractionalOffset: fractional != nil),
                                                  zIndex: try zIndex(m["zIndex"], "\(path).zIndex", default: 1))
        }

        mutating func boundaryItem(_ v: JSONValue, path: String) throws(ParamError) -> CompositionalBoundaryItem {
            try node(path)
            try v.rejectUnknownKeys(allowed: ["kind", "size", "alignment", "offset", "extendsBoundary", "pinToVisibleBounds", "zIndex"], path: path)
            let m = try v.requireObjectMembers(path: path)
            let kind = try self.kind(v, path)
            let alignmentName = try v.requireString("alignment", in: path)
            guard let alignment = CompositionalRectAlignment(rawValue: alignmentName) else {
                throw ParamError(path: "\(path).alignment", .mismatch(expected: "one of " + CompositionalRectAlignment.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "), found: "\"\(alignmentName)\""))
            }
            func flag(_ key: String, _ d: Bool) throws(ParamError) -> Bool {
                guard let f = m[key], f != .null else { return d }
                guard case .bool(let b) = f else { throw ParamError(path: "\(path).\(key)", .mismatch(expected: "true or false", found: f.kindDescription)) }
                return b
            }
            return CompositionalBoundaryItem(kind: kind, size: try size(m["size"], "\(path).size", container: (false, false)), alignment: alignment,
                                             offset: try point(m["offset"], "\(path).offset") ?? .zero,
                                             extendsBoundary: try flag("extendsBoundary", true), pinToVisibleBounds: try flag("pinToVisibleBounds", false),
                                             zIndex: try zIndex(m["zIndex"], "\(path).zIndex", default: 0))
        }

        mutating func decoration(_ v: JSONValue, path: String) throws(ParamError) -> CompositionalDecorationItem {
            try node(path)
            try v.rejectUnknownKeys(allowed: ["kind", "contentInsets", "zIndex"], path: path)
            let m = try v.requireObjectMembers(path: path)
            let kind: ElementKindName = m["kind"] == nil ? "background" : try self.kind(v, path)
            return CompositionalDecorationItem(kind: kind, contentInsets: try insets(m["contentInsets"], "\(path).contentInsets"),
                                               zIndex: try zIndex(m["zIndex"], "\(path).zIndex", default: -1))
        }

        // MARK: Values

        func kind(_ v: JSONValue, _ path: String) throws(ParamError) -> ElementKindName {
            let k = try v.requireString("kind", in: path)
            guard !k.isEmpty, k.count <= 64 else { throw ParamError(path: "\(path).kind", .mismatch(expected: "a name of 1 to 64 characters", found: "\"\(k)\"")) }
            return ElementKindName(k)
        }

        func size(_ v: JSONValue?, _ path: String, container: (Bool, Bool)) throws(ParamError) -> CompositionalSize {
            guard let v, v != .null else { throw ParamError(path: path, .missing(expected: "a size {\"width\": …, \"height\": …}")) }
            try v.rejectUnknownKeys(allowed: ["width", "height"], path: path)
            let m = try v.requireObjectMembers(path: path)
            let w = try dimension(m["width"], "\(path).width", container: container)
            let h = try dimension(m["height"], "\(path).height", container: container)
            return CompositionalSize(width: w, height: h)
        }

        func dimension(_ v: JSONValue?, _ path: String, container: (Bool, Bool)) throws(ParamError) -> CompositionalDimension {
            let expected = "one of {\"absolute\": n}, {\"estimated\": n}, {\"fractionalWidth\": f}, {\"fractionalHeight\": f}"
            guard let v, v != .null else { throw ParamError(path: path, .missing(expected: expected)) }
            guard case .object(let m) = v, m.count == 1, let (key, value) = m.first else { throw ParamError(path: path, .mismatch(expected: expected, found: v.kindDescription)) }
            guard case .number(let n) = value else { throw ParamError(path: "\(path).\(key)", .mismatch(expected: "a number", found: value.kindDescription)) }
            let found = JSONWriter.string(.number(n))
            switch key {
            case "absolute", "estimated":
                guard n.isFinite, n > 0, n <= Limits.length else {
                    if n == 0 { throw zero(path) }
                    throw ParamError(path: "\(path).\(key)", .mismatch(expected: "a length above 0 and at most \(Int(Limits.length))", found: found))
                }
                return key == "absolute" ? .absolute(n) : .estimated(n)
            case "fractionalWidth", "fractionalHeight":
                guard n.isFinite, n > 0, n <= Limits.fraction.upperBound else {
                    if n == 0 { throw zero(path) }
                    throw ParamError(path: "\(path).\(key)", .mismatch(expected: "a fraction above 0 and at most \(Int(Limits.fraction.upperBound))", found: found))
                }
                let estimated = key == "fractionalWidth" ? container.0 : container.1
                if estimated {
                    let axis = key == "fractionalWidth" ? "width" : "height"
                    throw ParamError(path: "\(path).\(key)", .refused("a fraction of the container's \(axis), which is estimated (sized by its content): there is no \(axis) to be a fraction of; give an absolute or estimated \(axis), or make the container's \(axis) absolute"))
                }
                return key == "fractionalWidth" ? .fractionalWidth(n) : .fractionalHeight(n)
            default:
                throw ParamError(path: path, .mismatch(expected: expected, found: "the key \"\(key)\""))
            }
        }

        func zero(_ path: String) -> ParamError {
            ParamError(path: path, .refused("a zero length: an item or group must take room (a group of zero-size items would repeat for ever)"))
        }

        func insets(_ v: JSONValue?, _ path: String) throws(ParamError) -> EdgeInsets {
            guard let v, v != .null else { return .zero }
            guard case .array(let a) = v, a.count == 4 else { throw ParamError(path: path, .mismatch(expected: "an array of 4 numbers [top, leading, bottom, trailing]", found: v.kindDescription)) }
            var n: [Double] = []
            for (i, x) in a.enumerated() {
                guard case .number(let d) = x, d.isFinite, abs(d) <= Limits.length else {
                    throw ParamError(path: "\(path)[\(i)]", .mismatch(expected: "a number within ±\(Int(Limits.length))", found: x.kindDescription))
                }
                n.append(d)
            }
            return EdgeInsets(top: n[0], left: n[1], bottom: n[2], right: n[3])
        }

        /// Insets that leave an absolute side with no room: the cell or group would vanish or turn inside out.
        func checkInsets(_ insets: EdgeInsets, size: CompositionalSize, path: String) throws(ParamError) {
            if case .absolute(let w) = size.width, w - insets.left - insets.right <= 0 {
                throw ParamError(path: "\(path).contentInsets", .refused("leading + trailing insets (\(JSONWriter.string(.number(insets.left + insets.right)))) leave no width of \(JSONWriter.string(.number(w)))"))
            }
            if case .absolute(let h) = size.height, h - insets.top - insets.bottom <= 0 {
                throw ParamError(path: "\(path).contentInsets", .refused("top + bottom insets (\(JSONWriter.string(.number(insets.top + insets.bottom)))) leave no height of \(JSONWriter.string(.number(h)))"))
            }
        }

        func length(_ v: JSONValue?, _ path: String, default d: Double, positive: Bool) throws(ParamError) -> Double {
            guard let v, v != .null else { return d }
            guard case .number(let n) = v, n.isFinite, n >= 0, n <= Limits.length, !positive || n > 0 else {
                throw ParamError(path: path, .mismatch(expected: positive ? "a length above 0 and at most \(Int(Limits.length))" : "a length from 0 to \(Int(Limits.length))", found: v.kindDescription))
            }
            return n
        }

        func point(_ v: JSONValue?, _ path: String) throws(ParamError) -> Point? {
            guard let v, v != .null else { return nil }
            guard case .array(let a) = v, a.count == 2, case .number(let x) = a[0], case .number(let y) = a[1],
                  x.isFinite, y.isFinite, abs(x) <= Limits.length, abs(y) <= Limits.length else {
                throw ParamError(path: path, .mismatch(expected: "[x, y], each within ±\(Int(Limits.length))", found: v.kindDescription))
            }
            return Point(x, y)
        }

        func zIndex(_ v: JSONValue?, _ path: String, default d: Int) throws(ParamError) -> Int {
            guard let v, v != .null else { return d }
            guard case .number(let n) = v, n == n.rounded(), Limits.zIndex.contains(n) else {
                throw ParamError(path: path, .mismatch(expected: "a whole number from \(Int(Limits.zIndex.lowerBound)) to \(Int(Limits.zIndex.upperBound))", found: v.kindDescription))
            }
            return Int(n)
        }

        func spacing(_ v: JSONValue?, _ path: String) throws(ParamError) -> CompositionalSpacing? {
            guard let v, v != .null else { return nil }
            let expected = "{\"fixed\": n} or {\"flexible\": n}"
            guard case .object(let m) = v, m.count == 1, let (key, value) = m.first, key == "fixed" || key == "flexible" else {
                throw ParamError(path: path, .mismatch(expected: expected, found: v.kindDescription))
            }
            let n = try length(value, "\(path).\(key)", default: 0, positive: false)
            return key == "fixed" ? .fixed(n) : .flexible(n)
        }

        func edgeSpacing(_ v: JSONValue?, _ path: String) throws(ParamError) -> CompositionalEdgeSpacing {
            guard let v, v != .null else { return .none }
            try v.rejectUnknownKeys(allowed: ["leading", "top", "trailing", "bottom"], path: path)
            let m = try v.requireObjectMembers(path: path)
            return CompositionalEdgeSpacing(leading: try spacing(m["leading"], "\(path).leading"), top: try spacing(m["top"], "\(path).top"),
                                            trailing: try spacing(m["trailing"], "\(path).trailing"), bottom: try spacing(m["bottom"], "\(path).bottom"))
        }

        func array(_ v: JSONValue?, _ path: String) throws(ParamError) -> [JSONValue] {
            guard let v, v != .null else { return [] }
            guard case .array(let a) = v else { throw ParamError(path: path, .mismatch(expected: "an array", found: v.kindDescription)) }
            return a
        }
    }

    // MARK: Encoding

    public static func json(_ sections: [CompositionalSection]) -> JSONValue { .array(sections.map(json)) }

    public static func json(_ rule: CompositionalSectionRule) -> JSONValue {
        switch rule {
        case .byIndex: return .object(["rule": .string("byIndex")])
        case .cycling: return .object(["rule": .string("cycling")])
        case .byIdentifier(let map, let fallback):
            var m: [String: JSONValue] = ["rule": .string("byIdentifier"), "map": .object(map.mapValues { .string($0) })]
            if let fallback { m["fallback"] = .string(fallback) }
            return .object(m)
        }
    }

    public static func json(_ list: CompositionalListConfiguration) -> JSONValue {
        .object(["appearance": .string(list.appearance.rawValue), "headerMode": .string(list.headerMode.rawValue),
                 "footerMode": .string(list.footerMode.rawValue), "rowHeight": .number(list.rowHeight)])
    }

    static func json(_ s: CompositionalSection) -> JSONValue {
        var m: [String: JSONValue] = ["group": json(s.group), "contentInsets": json(s.contentInsets), "interGroupSpacing": .number(s.interGroupSpacing),
                                      "orthogonalScrollingBehavior": .string(s.orthogonalScrollingBehavior.rawValue)]
        if let name = s.name { m["name"] = .string(name) }
        if let e = s.visibleItemsEffect {
            var effect: [String: JSONValue] = ["scale": .object(["min": .number(e.minimumScale)]), "alpha": .object(["min": .number(e.minimumAlpha)])]
            if let d = e.distance { effect["distance"] = .number(d) }
            m["visibleItemsEffect"] = .object(effect)
        }
        if !s.boundaryItems.isEmpty {
            m["boundarySupplementaryItems"] = .array(s.boundaryItems.map { b in
                .object(["kind": .string(b.kind.rawValue), "size": json(b.size), "alignment": .string(b.alignment.rawValue), "offset": json(b.offset),
                         "extendsBoundary": .bool(b.extendsBoundary), "pinToVisibleBounds": .bool(b.pinToVisibleBounds), "zIndex": .number(Double(b.zIndex))])
            })
        }
        if !s.decorationItems.isEmpty {
            m["decorationItems"] = .array(s.decorationItems.map { d in
                .object(["kind": .string(d.kind.rawValue), "contentInsets": json(d.contentInsets), "zIndex": .number(Double(d.zIndex))])
            })
        }
        return .object(m)
    }

    static func json(_ g: CompositionalGroup) -> JSONValue {
        var m: [String: JSONValue] = ["size": json(g.size), "contentInsets": json(g.contentInsets), "interItemSpacing": json(g.interItemSpacing)]
        switch g.arrangement {
        case .horizontal, .vertical:
            m["arrangement"] = .string(g.arrangement == .horizontal ? "horizontal" : "vertical")
            m["subitems"] = .array(g.subitems.map { s in
                switch s {
                case .item(let i): return json(i)
                case .group(let sub): return json(sub)
                }
            })
        case .custom(let frames):
            m["arrangement"] = .string("custom")
            m["frames"] = .array(frames.map { f in
                .object(["frame": .array([f.frame.origin.x, f.frame.origin.y, f.frame.size.width, f.frame.size.height].map { .number($0) }),
                         "zIndex": .number(Double(f.zIndex))])
            })
        }
        if let adaptive = g.adaptiveCount {
            m["count"] = .object(["otherwise": .number(Double(adaptive.otherwise)),
                                  "byWidth": .array(adaptive.steps.map { .object(["above": .number($0.above), "count": .number(Double($0.count))]) })])
        } else if let count = g.count { m["count"] = .number(Double(count)) }
        if !g.edgeSpacing.isNone { m["edgeSpacing"] = json(g.edgeSpacing) }
        return .object(m)
    }

    static func json(_ i: CompositionalItem) -> JSONValue {
        var m: [String: JSONValue] = ["size": json(i.size), "contentInsets": json(i.contentInsets)]
        if !i.edgeSpacing.isNone { m["edgeSpacing"] = json(i.edgeSpacing) }
        if !i.supplementaryItems.isEmpty {
            m["supplementaryItems"] = .array(i.supplementaryItems.map { s in
                var o: [String: JSONValue] = ["kind": .string(s.kind.rawValue), "size": json(s.size), "zIndex": .number(Double(s.zIndex)),
                                              "edges": .array(CompositionalRectEdges.names.filter { s.anchor.edges.contains($0.1) }.map { .string($0.0) })]
                o[s.anchor.isFractionalOffset ? "fractionalOffset" : "absoluteOffset"] = json(s.anchor.offset)
                return .object(o)
            })
        }
        return .object(m)
    }

    static func json(_ s: CompositionalSize) -> JSONValue { .object(["width": json(s.width), "height": json(s.height)]) }

    static func json(_ d: CompositionalDimension) -> JSONValue {
        switch d {
        case .absolute(let v): return .object(["absolute": .number(v)])
        case .estimated(let v): return .object(["estimated": .number(v)])
        case .fractionalWidth(let v): return .object(["fractionalWidth": .number(v)])
        case .fractionalHeight(let v): return .object(["fractionalHeight": .number(v)])
        }
    }

    static func json(_ s: CompositionalSpacing) -> JSONValue {
        switch s {
        case .fixed(let v): return .object(["fixed": .number(v)])
        case .flexible(let v): return .object(["flexible": .number(v)])
        }
    }

    static func json(_ e: CompositionalEdgeSpacing) -> JSONValue {
        var m: [String: JSONValue] = [:]
        if let v = e.leading { m["leading"] = json(v) }
        if let v = e.top { m["top"] = json(v) }
        if let v = e.trailing { m["trailing"] = json(v) }
        if let v = e.bottom { m["bottom"] = json(v) }
        return .object(m)
    }

    static func json(_ i: EdgeInsets) -> JSONValue { .array([i.top, i.left, i.bottom, i.right].map { .number($0) }) }
    static func json(_ p: Point) -> JSONValue { .array([.number(p.x), .number(p.y)]) }
}
