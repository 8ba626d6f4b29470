import TrellisCore

/// A layout parameter's value to and from JSON, checked against its kind and range: numbers
/// are plain, sizes `[width, height]`, insets `[top, left, bottom, right]`, choices strings,
/// per-section values objects keyed by section index.
enum LayoutParameterCoding {
    static func value(_ v: JSONValue, of parameter: ParameterDescription, path full: String) throws(ParamError) -> ParameterValue {
        // The accessors name a key in an object: the value goes in its own key under its parent's
        // path, so an error names `params.layout.wrap`, not a made-up key.
        let cut = full.lastIndex(of: ".")
        let path = cut.map { String(full[..<$0]) } ?? "params"
        let key = cut.map { String(full[full.index(after: $0)...]) } ?? full
        let holder = JSONValue.object([key: v])
        switch parameter.kind {
        case .number(let range):
            let n = try holder.requireNumber(key, in: path)
            guard range.contains(n) else { throw ParamError(path: full, .mismatch(expected: "a number from \(ParamRanges.text(range))", found: "\(n)")) }
            return .number(n)
        case .size(let range, let positive):
            let s = try holder.requireNumbers(key, count: 2, labels: ["width", "height"], in: path)
            guard s.allSatisfy({ range.contains($0) && (!positive || $0 > 0) }) else {
                let expected = positive ? "a positive width and height of at most \(ParamRanges.text(range.upperBound))"
                    : "a width and height from \(ParamRanges.text(range))"
                throw ParamError(path: full, .mismatch(expected: expected, found: "[\(s[0]), \(s[1])]"))
            }
            return .size(Size(s[0], s[1]))
        case .point(let range):
            let p = try holder.requireNumbers(key, count: 2, labels: ["x", "y"], in: path)
            guard p.allSatisfy(range.contains) else {
                throw ParamError(path: full, .mismatch(expected: "x and y from \(ParamRanges.text(range))", found: "[\(p[0]), \(p[1])]"))
            }
            return .point(Point(p[0], p[1]))
        case .insets(let range):
            let i = try holder.requireNumbers(key, count: 4, labels: ["top", "left", "bottom", "right"], in: path)
            guard i.allSatisfy(range.contains) else {
                throw ParamError(path: full, .mismatch(expected: "insets from \(ParamRanges.text(range))", found: "[\(i.map { "\($0)" }.joined(separator: ", "))]"))
            }
            return .insets(EdgeInsets(top: i[0], left: i[1], bottom: i[2], right: i[3]))
        case .bool:
            return .bool(try holder.requireBool(key, in: path))
        case .choice(let names):
            let name = try holder.requireString(key, in: path)
            guard names.contains(name) else {
                throw ParamError(path: full, .mismatch(expected: "one of " + names.map { "\"\($0)\"" }.joined(separator: ", "), found: "\"\(name)\""))
            }
            return .choice(name)
        case .perSection(let parameters):
            guard case .object(let members) = v else { throw ParamError(path: full, .mismatch(expected: "an object", found: v.kindDescription)) }
            var sections: [Int: [String: ParameterValue]] = [:]
            for (key, spec) in members {
                let sectionPath = "\(full).\(key)"
                guard let index = Int(key), index >= 0 else {
                    throw ParamError(path: sectionPath, .mismatch(expected: "a section index as the key (\"0\", \"1\", …)", found: "\"\(key)\""))
                }
                guard case .object(let given) = spec else {
                    throw ParamError(path: sectionPath, .mismatch(expected: "an object", found: spec.kindDescription))
                }
                try spec.rejectUnknownKeys(allowed: parameters.map(\.name), path: sectionPath)
                var values: [String: ParameterValue] = [:]
                for p in parameters {
                    if let field = given[p.name] { values[p.name] = try value(field, of: p, path: "\(sectionPath).\(p.name)") }
                }
                sections[index] = values
            }
            return .sections(sections)
        case .compositionalSections:
            return .compositionalSections(try CompositionalCoding.sections(v, path: full))
        case .compositionalRule:
            return .compositionalRule(try CompositionalCoding.rule(v, path: full))
        case .compositionalList:
            return .compositionalList(try CompositionalCoding.list(v, path: full))
        }
    }

    static func json(_ value: ParameterValue) -> JSONValue {
        switch value {
        case .number(let n): return .number(n)
        case .size(let s): return .array([.number(s.width), .number(s.height)])
        case .point(let p): return .array([.number(p.x), .number(p.y)])
        case .insets(let i): return .array([.number(i.top), .number(i.left), .number(i.bottom), .number(i.right)])
        case .bool(let b): return .bool(b)
        case .choice(let name): return .string(name)
        case .sections(let sections):
            var members: [String: JSONValue] = [:]
            for (index, values) in sections { members[String(index)] = .object(values.mapValues(json)) }
            return .object(members)
        case .compositionalSections(let sections): return CompositionalCoding.json(sections)
        case .compositionalRule(let rule): return CompositionalCoding.json(rule)
        case .compositionalList(let list): return CompositionalCoding.json(list)
        }
    }
}
