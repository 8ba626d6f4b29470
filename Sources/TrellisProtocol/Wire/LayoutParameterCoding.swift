import TrellisCore

/// A layout parameter's value to and from JSON, checked against its kind and range: numbers
/// are plain, sizes `[width, height]`, insets `[top, left, bottom, right]`, choices strings,
/// per-section values objects keyed by section index.
enum LayoutParameterCoding {
    static func value(_ v: JSONValue, of parameter: ParameterDescription, path: String) throws(ParamError) -> ParameterValue {
        let holder = JSONValue.object(["v": v])
        switch parameter.kind {
        case .number(let range):
            let n = try holder.requireNumber("v", in: path)
            guard range.contains(n) else { throw ParamError(path: path, .mismatch(expected: "a number from \(text(range))", found: "\(n)")) }
            return .number(n)
        case .size(let range, let positive):
            let s = try numbers(v, ["width", "height"], path)
            guard s.allSatisfy({ range.contains($0) && (!positive || $0 > 0) }) else {
                let expected = positive ? "a positive width and height of at most \(text(range.upperBound))"
                    : "a width and height from \(text(range))"
                throw ParamError(path: path, .mismatch(expected: expected, found: "[\(s[0]), \(s[1])]"))
            }
            return .size(Size(s[0], s[1]))
        case .point(let range):
            let p = try numbers(v, ["x", "y"], path)
            guard p.allSatisfy(range.contains) else {
                throw ParamError(path: path, .mismatch(expected: "x and y from \(text(range))", found: "[\(p[0]), \(p[1])]"))
            }
            return .point(Point(p[0], p[1]))
        case .insets(let range):
            let i = try numbers(v, ["top", "left", "bottom", "right"], path)
            guard i.allSatisfy(range.contains) else {
                throw ParamError(path: path, .mismatch(expected: "insets from \(text(range))", found: "[\(i.map { "\($0)" }.joined(separator: ", "))]"))
            }
            return .insets(EdgeInsets(top: i[0], left: i[1], bottom: i[2], right: i[3]))
        case .bool:
            return .bool(try holder.requireBool("v", in: path))
        case .choice(let names):
            let name = try holder.requireString("v", in: path)
            guard names.contains(name) else {
                throw ParamError(path: path, .mismatch(expected: "one of " + names.map { "\"\($0)\"" }.joined(separator: ", "), found: "\"\(name)\""))
            }
            return .choice(name)
        case .perSection(let parameters):
            guard case .object(let members) = v else { throw ParamError(path: path, .mismatch(expected: "an object", found: v.kindDescription)) }
            var sections: [Int: [String: ParameterValue]] = [:]
            for (key, spec) in members {
                let sectionPath = "\(path).\(key)"
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
        }
    }

    private static func numbers(_ v: JSONValue, _ labels: [String], _ path: String) throws(ParamError) -> [Double] {
        try JSONValue.object(["v": v]).requireNumbers("v", count: labels.count, labels: labels, in: path)
    }

    /// `0 to 1000000`, whole numbers without a decimal point.
    private static func text(_ range: ClosedRange<Double>) -> String { "\(text(range.lowerBound)) to \(text(range.upperBound))" }
    private static func text(_ n: Double) -> String { n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : "\(n)" }
}
