import TrellisCore
import TrellisProtocol

/// The outcome of one check: whether it held, and what was expected and found, written in
/// the script's own `key=value` words so a failure reads next to the line that made it.
public struct CheckResult: Hashable, Sendable {
    public var passed: Bool
    public var expected: String
    public var actual: String

    public init(passed: Bool, expected: String, actual: String) {
        self.passed = passed
        self.expected = expected
        self.actual = actual
    }
}

/// Evaluates expectations by asking a server (over its socket or in process) for the values
/// they name: `query.attributes` for model attributes, `query.scene` for what is on screen,
/// `stats` for counters.
public struct ExpectationCheck {
    public var caller: any MethodCaller
    /// The script's path: `scene == FILE` names files relative to it.
    public var scriptPath: String

    public init(caller: any MethodCaller, scriptPath: String) {
        self.caller = caller
        self.scriptPath = scriptPath
    }

    public func evaluate(_ expectation: Expectation) -> CheckResult {
        do {
            switch expectation {
            case .attributes(let session, let element, let source, let checks, let tolerance):
                let found = try attributes(session: session, element: element, source: source)
                return compare(found, checks: checks, tolerance: tolerance)
            case .session(let session, let sceneChecks, let statChecks, let tolerance):
                // Only what the line names is asked for, so a stats-only line works on a server
                // whose scene is huge, and the other way round.
                var parts: [CheckResult] = []
                if !sceneChecks.isEmpty {
                    parts.append(compare(scene: try caller.call("query.scene", ["session": .string(session)]), checks: sceneChecks, tolerance: tolerance))
                }
                if !statChecks.isEmpty {
                    parts.append(compare(stats: try caller.call("stats", ["session": .string(session)]), checks: statChecks))
                }
                return CheckResult(passed: parts.allSatisfy(\.passed), expected: parts.map(\.expected).joined(separator: " "),
                                   actual: parts.map(\.actual).joined(separator: " "))
            case .sceneFile(let session, let path, let tolerance):
                return try compareScene(session: session, path: path, tolerance: tolerance)
            case .dynamicState(let session, let element, let checks, let tolerance):
                return try compareDynamicState(session: session, element: element, checks: checks, tolerance: tolerance)
            case .dynamics(let session, let checks):
                return compare(dynamics: try caller.call("dynamics.list", ["session": .string(session)]), checks: checks)
            case .scroll(let session, let checks, let tolerance):
                return compare(scroll: try caller.call("session.info", ["session": .string(session)])["scroll"], checks: checks, tolerance: tolerance)
            }
        } catch {
            return CheckResult(passed: false, expected: "an answer from the server", actual: "error: \(error)")
        }
    }

    // MARK: Attributes

    /// The element's attributes (model) or its view (presentation), nil when there is none.
    func attributes(session: String, element: ElementSelector, source: AttributeSource) throws(ClientError) -> JSONValue? {
        let candidates: [JSONValue]
        switch source {
        case .model:
            if case .cell(let path) = element {
                do {
                    let r = try caller.call("query.attributes", ["session": .string(session), "at": .array([.number(Double(path.section)), .number(Double(path.item))])])
                    candidates = r["attributes"].arrayItems
                } catch .server(_, _, "out_of_range"?, _) {
                    return nil
                }
            } else {
                // Every element: supplementary views and items by id have no `at` query.
                let everywhere: JSONValue = .array([-1e9, -1e9, 2e9, 2e9].map { .number($0) })
                candidates = try caller.call("query.attributes", ["session": .string(session), "rect": everywhere])["attributes"].arrayItems
            }
        case .presentation:
            candidates = try caller.call("query.scene", ["session": .string(session)])["views"].arrayItems
        }
        return candidates.first { matches($0["element"], element) }
    }

    func matches(_ element: JSONValue?, _ selector: ElementSelector) -> Bool {
        guard let element else { return false }
        switch selector {
        case .cell(let path):
            return element["kind"]?.stringValue == "cell" && element["section"]?.numberValue == Double(path.section)
                && element["item"]?.numberValue == Double(path.item)
        case .item(let id):
            return element["kind"]?.stringValue == "cell" && element["id"]?.stringValue == id
        case .supplementary(let kind, let section):
            return element["elementKind"]?.stringValue == kind && element["section"]?.numberValue == Double(section)
        case .itemSupplementary(let kind, let path):
            return element["kind"]?.stringValue == "supplementary" && element["elementKind"]?.stringValue == kind
                && element["section"]?.numberValue == Double(path.section) && element["item"]?.numberValue == Double(path.item)
        case .body(let name):
            return element["kind"]?.stringValue == "body" && element["id"]?.stringValue == name
        }
    }

    func compare(_ found: JSONValue?, checks: [AttributeCheck], tolerance: Double) -> CheckResult {
        let expected = checks.map(Self.describe).joined(separator: " ")
        if checks == [.absent] {
            return CheckResult(passed: found == nil, expected: "absent", actual: found.map(Self.describeFound) ?? "absent")
        }
        guard let found else { return CheckResult(passed: false, expected: expected, actual: "absent") }
        let frame = found["frame"].numbers
        var passed = true
        var actual: [String] = []
        for check in checks {
            switch check {
            case .frame(let r):
                passed = passed && Self.near(frame, [r.minX, r.minY, r.width, r.height], tolerance)
                actual.append("frame=" + Self.list(frame))
            case .center(let p):
                let center = frame.count == 4 ? [frame[0] + frame[2] / 2, frame[1] + frame[3] / 2] : []
                passed = passed && Self.near(center, [p.x, p.y], tolerance)
                actual.append("center=" + Self.list(center))
            case .size(let s):
                let size = frame.count == 4 ? [frame[2], frame[3]] : []
                passed = passed && Self.near(size, [s.width, s.height], tolerance)
                actual.append("size=" + size.map(Self.format).joined(separator: "x"))
            case .alpha(let comparison, let value):
                let a = found["alpha"]?.numberValue ?? .nan
                passed = passed && comparison.holds(a, value, tolerance: tolerance)
                actual.append("alpha=" + Self.format(a))
            case .zIndex(let comparison, let value):
                let z = found["zIndex"]?.numberValue ?? .nan
                passed = passed && comparison.holds(z, value)
                actual.append("zIndex=" + Self.format(z))
            case .hidden(let value):
                let hidden = found["hidden"] == .bool(true)
                passed = passed && hidden == value
                actual.append("hidden=\(hidden)")
            case .id(let value):
                let id = found["element"]?["id"]?.stringValue
                passed = passed && id == value
                actual.append("id=" + (id ?? "(none)"))
            case .transform(let value):
                let t = found["transform"].map { $0.numbers } ?? ExpectationSyntax.identity
                passed = passed && Self.near(t, value, tolerance)
                actual.append("transform=" + (t == ExpectationSyntax.identity ? "identity" : Self.list(t)))
            case .absent:
                passed = false
                actual.append(Self.describeFound(found))
            }
        }
        return CheckResult(passed: passed, expected: expected, actual: actual.joined(separator: " "))
    }

    // MARK: Dynamics

    /// Reads the element's state in the animator; a cell named by index path is first found
    /// in the layout, for its item id.
    func compareDynamicState(session: String, element: ElementSelector, checks: [DynamicCheck], tolerance: Double) throws(ClientError) -> CheckResult {
        let expected = checks.map(Self.describe).joined(separator: " ")
        let wire: JSONValue
        switch element {
        case .item(let id): wire = .string(id)
        case .body(let name): wire = .object(["body": .string(name)])
        case .cell:
            guard let id = try attributes(session: session, element: element, source: .model)?["element"]?["id"]?.stringValue else {
                return CheckResult(passed: false, expected: expected, actual: "no item at \(element)")
            }
            wire = .string(id)
        case .supplementary, .itemSupplementary:
            return CheckResult(passed: false, expected: expected, actual: "\(element) is not a dynamic element")
        }
        let state = try caller.call("dynamics.item", ["session": .string(session), "element": wire])
        var passed = true
        var actual: [String] = []
        for check in checks {
            switch check {
            case .center(let p):
                let center = state["center"].numbers
                passed = passed && Self.near(center, [p.x, p.y], tolerance)
                actual.append("center=" + Self.list(center))
            case .size(let s):
                let size = state["size"].numbers
                passed = passed && Self.near(size, [s.width, s.height], tolerance)
                actual.append("size=" + size.map(Self.format).joined(separator: "x"))
            case .velocity(let v):
                Self.checkVelocity(state, v, tolerance, &passed, &actual)
            case .speed(let comparison, let value):
                Self.checkSpeed(state, comparison, value, tolerance, &passed, &actual)
            case .angle(let comparison, let value):
                let angle = state["angle"]?.numberValue ?? .nan
                passed = passed && comparison.holds(angle, value, tolerance: tolerance)
                actual.append("angle=" + Self.format(angle))
            case .angularVelocity(let comparison, let value):
                let w = state["angularVelocity"]?.numberValue ?? .nan
                passed = passed && comparison.holds(w, value, tolerance: tolerance)
                actual.append("angularVelocity=" + Self.format(w))
            case .dynamic(let value):
                let dynamic = state["dynamic"] == .bool(true)
                passed = passed && dynamic == value
                actual.append("dynamic=\(dynamic)")
            }
        }
        return CheckResult(passed: passed, expected: expected, actual: actual.joined(separator: " "))
    }

    /// `running`, `stepRate`, `behaviors` and `items` of `dynamics.list` (the two lists by their whole length).
    func compare(dynamics list: JSONValue, checks: [StatCheck]) -> CheckResult {
        var passed = true
        var expected: [String] = [], actual: [String] = []
        for check in checks {
            let key = check.path.joined(separator: ".")
            if key == "running" {
                let running = list["running"] == .bool(true)
                passed = passed && check.comparison.holds(running ? 1 : 0, check.value)
                let named = check.value == 0 ? "false" : check.value == 1 ? "true" : Self.format(check.value)
                expected.append("running\(check.comparison.rawValue)\(named)")
                actual.append("running=\(running)")
            } else if key == "stepRate" {
                let rate = list["stepRate"]?.numberValue ?? 60
                passed = passed && check.comparison.holds(rate, check.value)
                expected.append("stepRate\(check.comparison.rawValue)\(Self.format(check.value))")
                actual.append("stepRate=\(Self.format(rate))")
            } else {
                // A cut page (past 10,000 entries) gives each list's whole length in `counts`.
                let count = list["counts"]?[key]?.numberValue ?? Double(list[key].arrayItems.count)
                passed = passed && check.comparison.holds(count, check.value)
                expected.append("\(key)\(check.comparison.rawValue)\(Self.format(check.value))")
                actual.append("\(key)=\(Self.format(count))")
            }
        }
        return CheckResult(passed: passed, expected: expected.joined(separator: " "), actual: actual.joined(separator: " "))
    }

    static func describe(_ check: DynamicCheck) -> String {
        func op(_ c: Comparison) -> String { c == .equal ? "=" : c.rawValue }
        switch check {
        case .center(let p): return "center=" + list([p.x, p.y])
        case .size(let s): return "size=\(format(s.width))x\(format(s.height))"
        case .velocity(let v): return "velocity=" + list([v.x, v.y])
        case .speed(let c, let v): return "speed\(op(c))\(format(v))"
        case .angle(let c, let v): return "angle\(op(c))\(format(v))"
        case .angularVelocity(let c, let v): return "angularVelocity\(op(c))\(format(v))"
        case .dynamic(let d): return "dynamic=\(d)"
        }
    }

    // MARK: Scroll

    /// session.info's `scroll` (nil from a server without scroll physics).
    func compare(scroll state: JSONValue?, checks: [ScrollCheck], tolerance: Double) -> CheckResult {
        let expected = checks.map(Self.describe).joined(separator: " ")
        guard let state, case .object = state else {
            return CheckResult(passed: false, expected: expected, actual: "no scroll state in session.info")
        }
        var passed = true
        var actual: [String] = []
        for check in checks {
            switch check {
            case .flag(let name, let comparison, let value):
                let flag = state[name] == .bool(true)
                passed = passed && comparison.holds(flag ? 1 : 0, value ? 1 : 0)
                actual.append("\(name)=\(flag)")
            case .offset(let p):
                let offset = state["contentOffset"].numbers
                passed = passed && Self.near(offset, [p.x, p.y], tolerance)
                actual.append("offset=" + Self.list(offset))
            case .velocity(let v):
                Self.checkVelocity(state, v, tolerance, &passed, &actual)
            case .speed(let comparison, let value):
                Self.checkSpeed(state, comparison, value, tolerance, &passed, &actual)
            case .current(let expected):
                let current = state["currentItem"].numbers
                passed = passed && current == [Double(expected.section), Double(expected.item)]
                actual.append("current=" + (current.count == 2 ? "\(Int(current[0])):\(Int(current[1]))" : "none"))
            }
        }
        return CheckResult(passed: passed, expected: expected, actual: actual.joined(separator: " "))
    }

    /// `state.velocity` near `expected` (the dynamic state's and the scroll state's alike).
    static func checkVelocity(_ state: JSONValue, _ expected: Point, _ tolerance: Double, _ passed: inout Bool, _ actual: inout [String]) {
        let velocity = state["velocity"].numbers
        passed = passed && near(velocity, [expected.x, expected.y], tolerance)
        actual.append("velocity=" + list(velocity))
    }

    /// The length of `state.velocity` compared with `value`.
    static func checkSpeed(_ state: JSONValue, _ comparison: Comparison, _ value: Double, _ tolerance: Double,
                           _ passed: inout Bool, _ actual: inout [String]) {
        let v = state["velocity"].numbers
        let speed = v.count == 2 ? (v[0] * v[0] + v[1] * v[1]).squareRoot() : .nan
        passed = passed && comparison.holds(speed, value, tolerance: tolerance)
        actual.append("speed=" + format(speed))
    }

    static func describe(_ check: ScrollCheck) -> String {
        switch check {
        case .flag(let name, let c, let value): return "\(name)\(c.rawValue)\(value)"
        case .offset(let p): return "offset=" + list([p.x, p.y])
        case .velocity(let v): return "velocity=" + list([v.x, v.y])
        case .speed(let c, let v): return "speed\(c == .equal ? "=" : c.rawValue)\(format(v))"
        case .current(let p): return "current=" + CommandSyntax.format(p)
        }
    }

    // MARK: Scene, stats, files

    func compare(scene: JSONValue, checks: [SceneCheck], tolerance: Double) -> CheckResult {
        var passed = true
        var expected: [String] = [], actual: [String] = []
        for check in checks {
            switch check {
            case .visible(let comparison, let n):
                let count = Double(scene["views"].arrayItems.count)
                passed = passed && comparison.holds(count, n)
                expected.append("visible\(comparison.rawValue)\(Self.format(n))")
                actual.append("visible=\(Self.format(count))")
            case .offset(let p):
                let offset = scene["contentOffset"].numbers
                passed = passed && Self.near(offset, [p.x, p.y], tolerance)
                expected.append("offset=\(Self.format(p.x)),\(Self.format(p.y))")
                actual.append("offset=" + Self.list(offset))
            case .contentSize(let s):
                let size = scene["contentSize"].numbers
                passed = passed && Self.near(size, [s.width, s.height], tolerance)
                expected.append("contentSize=\(Self.format(s.width))x\(Self.format(s.height))")
                actual.append("contentSize=" + size.map(Self.format).joined(separator: "x"))
            case .time(let comparison, let ms):
                let time = scene["time"]?.numberValue ?? .nan
                passed = passed && comparison.holds(time, ms, tolerance: tolerance)
                expected.append("time\(comparison.rawValue)\(Self.format(ms))ms")
                actual.append("time=\(Self.format(time))ms")
            }
        }
        return CheckResult(passed: passed, expected: expected.joined(separator: " "), actual: actual.joined(separator: " "))
    }

    func compare(stats: JSONValue, checks: [StatCheck]) -> CheckResult {
        var passed = true
        var expected: [String] = [], actual: [String] = []
        for check in checks {
            let key = check.path.joined(separator: ".")
            var value: JSONValue? = stats
            for component in check.path { value = value?[component] }
            expected.append("\(key)\(check.comparison.rawValue)\(Self.format(check.value))")
            if case .bool(let flag)? = value {
                passed = passed && check.comparison.holds(flag ? 1 : 0, check.value)
                actual.append("\(key)=\(flag)")
                continue
            }
            guard let number = value?.numberValue else {
                passed = false
                actual.append("\(key)=" + (value.map { JSONWriter.string($0) } ?? "(missing)"))
                continue
            }
            passed = passed && check.comparison.holds(number, check.value)
            actual.append("\(key)=\(Self.format(number))")
        }
        return CheckResult(passed: passed, expected: expected.joined(separator: " "), actual: actual.joined(separator: " "))
    }

    func compareScene(session: String, path: String, tolerance: Double) throws(ClientError) -> CheckResult {
        let file = ScriptFile.resolve(path, relativeTo: scriptPath)
        guard let bytes = ScriptFile.read(file) else {
            return CheckResult(passed: false, expected: "the scene in \(path)", actual: "cannot read \(file)")
        }
        let expected: JSONValue
        do { expected = try JSONParser.parse(bytes, limits: JSONLimits(maximumDepth: 64, maximumStringBytes: 64 << 20, maximumElements: 1 << 26)) } catch {
            return CheckResult(passed: false, expected: "the scene in \(path)", actual: "\(path) is not JSON: \(error.message)")
        }
        let scene = try caller.call("query.scene", ["session": .string(session)])
        guard let difference = JSONComparison.firstDifference(expected: expected, actual: scene, tolerance: tolerance) else {
            return CheckResult(passed: true, expected: "the scene in \(path)", actual: "the same scene")
        }
        return CheckResult(passed: false, expected: "\(difference.path) = \(difference.expected) (\(path))",
                           actual: "\(difference.path) = \(difference.actual)")
    }

    // MARK: Formatting

    static func near(_ a: [Double], _ b: [Double], _ tolerance: Double) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) <= tolerance }
    }

    /// Numbers shown to 6 decimals: enough to see a difference, short enough to read.
    static func format(_ value: Double) -> String {
        value.isFinite ? JSONNumberText.format((value * 1e6).rounded() / 1e6) : "\(value)"
    }

    static func list(_ values: [Double]) -> String { values.isEmpty ? "(none)" : values.map(format).joined(separator: ",") }

    static func describe(_ check: AttributeCheck) -> String {
        switch check {
        case .frame(let r): return "frame=" + list([r.minX, r.minY, r.width, r.height])
        case .center(let p): return "center=" + list([p.x, p.y])
        case .size(let s): return "size=\(format(s.width))x\(format(s.height))"
        case .alpha(let c, let v): return "alpha\(c == .equal ? "=" : c.rawValue)\(format(v))"
        case .zIndex(let c, let v): return "zIndex\(c == .equal ? "=" : c.rawValue)\(format(v))"
        case .hidden(let h): return "hidden=\(h)"
        case .id(let id): return "id=\(id)"
        case .transform(let t): return "transform=" + (t == ExpectationSyntax.identity ? "identity" : list(t))
        case .absent: return "absent"
        }
    }

    static func describeFound(_ found: JSONValue) -> String {
        "present: frame=" + list(found["frame"].numbers) + " alpha=" + format(found["alpha"]?.numberValue ?? .nan)
    }
}

extension Optional where Wrapped == JSONValue {
    /// The elements of an array value; empty for anything else.
    var arrayItems: [JSONValue] {
        if case .array(let items)? = self { return items }
        return []
    }

    /// The numbers of an array value (a frame, a point); empty for anything else.
    var numbers: [Double] { arrayItems.compactMap(\.numberValue) }
}

extension JSONValue {
    var numbers: [Double] { Optional(self).numbers }
}
