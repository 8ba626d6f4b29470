import TrellisCore

/// Reads the words of an `expect` line (after the word `expect`) into an `Expectation`.
///
/// ```
/// expect NAME [scene] ELEMENT KEY=VALUE… [tolerance=T]   one element (model, or scene = on screen)
/// expect NAME visible=12 offset=0,400 …                  the scene as a whole
/// expect NAME pool.cell.created<=20 animating==0 …       stats {session}, by dotted path
/// expect NAME scene == FILE.json [tolerance=T]           the whole scene against a file
/// expect NAME item:ID center=… velocity=… angle=…        an element in the animator (dynamics.item)
/// expect NAME body:NAME center=… speed<1                 a free body, likewise
/// expect NAME dynamics running==false behaviors==2       the animator (dynamics.list)
/// expect NAME scroll dragging==false offset=0,1200 …     the scroll state (session.info's scroll)
/// ```
public enum ExpectationSyntax {
    /// Keys read from the scene; any other key on a session-level line is a stats path.
    static let sceneKeys: Set<String> = ["visible", "offset", "contentSize", "time"]

    public static func parse(_ words: [String]) throws(SyntaxError) -> Expectation {
        guard let session = words.first else {
            throw SyntaxError("expect: missing the session name (expect NAME 0:3 frame=x,y,w,h)")
        }
        var rest = Array(words.dropFirst())
        var tolerance = Expectation.defaultTolerance
        // tolerance= may stand anywhere after the name.
        if let index = rest.firstIndex(where: { $0.hasPrefix("tolerance=") }) {
            let text = String(rest[index].dropFirst("tolerance=".count))
            guard let value = Double(text), value >= 0 else {
                throw SyntaxError("'\(rest[index])': expected tolerance=NUMBER (0 or more)")
            }
            tolerance = value
            rest.remove(at: index)
        }
        guard let first = rest.first else {
            throw SyntaxError("expect \(session): nothing to check (e.g. 0:3 frame=x,y,w,h, visible=12, pool.cell.created<=20, scene == FILE.json)")
        }
        if first == "dynamics" {
            return .dynamics(session: session, checks: try dynamicsChecks(Array(rest.dropFirst())))
        }
        if first == "scroll" {
            return .scroll(session: session, checks: try scrollChecks(Array(rest.dropFirst())), tolerance: tolerance)
        }
        if first == "scene" {
            if rest.count >= 2, rest[1] == "==" || rest[1] == "=" {
                guard rest.count == 3 else { throw SyntaxError("expected: expect \(session) scene == FILE.json") }
                return .sceneFile(session: session, path: rest[2], tolerance: tolerance)
            }
            guard rest.count >= 2, let element = try selector(rest[1]) else {
                throw SyntaxError("expect \(session) scene: expected an element (0:3, item:ID, header:0) or '== FILE.json'")
            }
            return .attributes(session: session, element: element, source: .presentation,
                               checks: try attributeChecks(Array(rest.dropFirst(2)), element: element), tolerance: tolerance)
        }
        if let element = try selector(first) {
            if let checks = try dynamicChecks(Array(rest.dropFirst()), element: element) {
                return .dynamicState(session: session, element: element, checks: checks, tolerance: tolerance)
            }
            return .attributes(session: session, element: element, source: .model,
                               checks: try attributeChecks(Array(rest.dropFirst()), element: element), tolerance: tolerance)
        }
        var sceneChecks: [SceneCheck] = []
        var statChecks: [StatCheck] = []
        for word in rest {
            guard let (key, comparison, value) = Comparison.split(word), !key.isEmpty else {
                throw SyntaxError("'\(word)': expected KEY=VALUE or KEY<op>NUMBER (ops: == != <= >= < >)")
            }
            if sceneKeys.contains(key) {
                sceneChecks.append(try sceneCheck(key, comparison, value, word: word))
            } else {
                // Booleans (`animating==false`) compare as 0 and 1.
                guard let number = Double(value) ?? ["false": 0, "true": 1][value] else {
                    throw SyntaxError("'\(word)': \(key) is compared with a number (or true/false)")
                }
                statChecks.append(StatCheck(path: key.split(separator: ".").map(String.init), comparison: comparison, value: number))
            }
        }
        return .session(session: session, scene: sceneChecks, stats: statChecks, tolerance: tolerance)
    }

    /// An element selector, or nil when the word is not one (it has an operator, or no colon).
    static func selector(_ word: String) throws(SyntaxError) -> ElementSelector? {
        guard word.contains(":"), !word.contains(where: { "=<>!".contains($0) }) else { return nil }
        if word.hasPrefix("body:") || word.hasPrefix("item:") {
            switch try DynamicElement.parse(word) {
            case .body(let name): return .body(name)
            case .item(let id): return .item(id.rawValue)
            }
        }
        for kind in ["header", "footer", "background"] where word.hasPrefix(kind + ":") {
            guard let section = Int(word.dropFirst(kind.count + 1)), section >= 0 else {
                throw SyntaxError("'\(word)': expected \(kind):SECTION")
            }
            return .supplementary(kind: kind, section: section)
        }
        // Any other kind by name: KIND:SECTION:ITEM is an item's (a badge), KIND:SECTION a section's.
        let parts = word.split(separator: ":", omittingEmptySubsequences: false)
        if let kind = parts.first, let letter = kind.first, letter.isLetter {
            let numbers = parts.dropFirst().map { Int($0) }
            guard !kind.isEmpty, numbers.count == 1 || numbers.count == 2, numbers.allSatisfy({ ($0 ?? -1) >= 0 }) else {
                throw SyntaxError("'\(word)': expected KIND:SECTION:ITEM (an item's supplementary view, e.g. badge:0:3) or KIND:SECTION")
            }
            if numbers.count == 2 { return .itemSupplementary(kind: String(kind), path: IndexPath(numbers[0]!, numbers[1]!)) }
            return .supplementary(kind: String(kind), section: numbers[0]!)
        }
        return .cell(try CommandSyntax.indexPath(word))
    }

    static func attributeChecks(_ words: [String], element: ElementSelector) throws(SyntaxError) -> [AttributeCheck] {
        guard !words.isEmpty else {
            throw SyntaxError("expect … \(element): nothing to check (frame=, center=, size=, alpha=, zIndex=, hidden=, id=, transform=, absent)")
        }
        var checks: [AttributeCheck] = []
        for word in words {
            if word == "absent" {
                guard words.count == 1 else { throw SyntaxError("'absent' stands alone: an absent element has no attributes to check") }
                checks.append(.absent)
                continue
            }
            guard let (key, comparison, value) = Comparison.split(word) else {
                throw SyntaxError("'\(word)': expected KEY=VALUE (frame, center, size, alpha, zIndex, hidden, id, transform) or 'absent'")
            }
            let equalityOnly = { () throws(SyntaxError) in
                if comparison != .equal { throw SyntaxError("'\(word)': \(key) is compared with = only") }
            }
            switch key {
            case "frame": try equalityOnly(); checks.append(.frame(try CommandSyntax.rect(value)))
            case "center": try equalityOnly(); checks.append(.center(try CommandSyntax.point(value)))
            case "size": try equalityOnly(); checks.append(.size(try CommandSyntax.size(value)))
            case "alpha": checks.append(.alpha(comparison, try number(value, word: word)))
            case "zIndex": checks.append(.zIndex(comparison, try number(value, word: word)))
            case "hidden":
                try equalityOnly()
                guard value == "true" || value == "false" else { throw SyntaxError("'\(word)': expected hidden=true or hidden=false") }
                checks.append(.hidden(value == "true"))
            case "id": try equalityOnly(); checks.append(.id(value))
            case "transform":
                try equalityOnly()
                if value == "identity" { checks.append(.transform(Self.identity)); continue }
                let numbers = value.split(separator: ",").compactMap { Double($0) }
                guard numbers.count == 16, !value.hasSuffix(",") else {
                    throw SyntaxError("'\(word)': expected transform=identity or 16 numbers m11,m12,…,m44")
                }
                checks.append(.transform(numbers))
            default:
                throw SyntaxError("'\(key)': unknown attribute; known: frame, center, size, alpha, zIndex, hidden, id, transform, absent")
            }
        }
        return checks
    }

    /// Keys only the animator knows, and the ones it shares with the layout's attributes.
    static let dynamicOnlyKeys: Set<String> = ["velocity", "speed", "angle", "angularVelocity", "dynamic"]
    static let dynamicKeys = dynamicOnlyKeys.union(["center", "size"])

    /// The checks of a line read through `dynamics.item`, or nil when the line is an attribute
    /// check: it names a key only the animator knows, or a body with nothing but keys the
    /// animator gives (a body's centre is the animator's to say).
    static func dynamicChecks(_ words: [String], element: ElementSelector) throws(SyntaxError) -> [DynamicCheck]? {
        let keys = words.map { Comparison.split($0)?.key ?? $0 }
        let isBody: Bool
        if case .body = element { isBody = true } else { isBody = false }
        guard keys.contains(where: dynamicOnlyKeys.contains) || (isBody && !keys.isEmpty && keys.allSatisfy(dynamicKeys.contains)) else {
            return nil
        }
        if case .supplementary = element { throw SyntaxError("expect … \(element): only items and bodies are dynamic") }
        if let other = keys.first(where: { !dynamicKeys.contains($0) }) {
            throw SyntaxError("'\(other)': a line that reads the animator checks center, size, velocity, speed, angle, angularVelocity and dynamic only")
        }
        var checks: [DynamicCheck] = []
        for word in words {
            guard let (key, comparison, value) = Comparison.split(word) else {
                throw SyntaxError("'\(word)': expected KEY=VALUE (center, size, velocity, speed, angle, angularVelocity, dynamic)")
            }
            let equalityOnly = { () throws(SyntaxError) in
                if comparison != .equal { throw SyntaxError("'\(word)': \(key) is compared with = only") }
            }
            switch key {
            case "center": try equalityOnly(); checks.append(.center(try CommandSyntax.point(value)))
            case "size": try equalityOnly(); checks.append(.size(try CommandSyntax.size(value)))
            case "velocity": try equalityOnly(); checks.append(.velocity(try CommandSyntax.point(value)))
            case "speed": checks.append(.speed(comparison, try number(value, word: word)))
            case "angle": checks.append(.angle(comparison, try number(value, word: word)))
            case "angularVelocity": checks.append(.angularVelocity(comparison, try number(value, word: word)))
            default:
                try equalityOnly()
                guard value == "true" || value == "false" else { throw SyntaxError("'\(word)': expected dynamic=true or dynamic=false") }
                checks.append(.dynamic(value == "true"))
            }
        }
        return checks
    }

    /// `running==false behaviors==2 items>=1` on `dynamics.list`.
    static func dynamicsChecks(_ words: [String]) throws(SyntaxError) -> [StatCheck] {
        guard !words.isEmpty else { throw SyntaxError("expect … dynamics: nothing to check (running==false, behaviors==N, items==N, stepRate==120)") }
        var checks: [StatCheck] = []
        for word in words {
            guard let (key, comparison, value) = Comparison.split(word), ["running", "behaviors", "items", "stepRate"].contains(key) else {
                throw SyntaxError("'\(word)': expected running==true|false, behaviors<op>N, items<op>N or stepRate<op>HZ")
            }
            guard let n = Double(value) ?? ["false": 0, "true": 1][value] else {
                throw SyntaxError("'\(word)': \(key) is compared with a number (or true/false)")
            }
            checks.append(StatCheck(path: [key], comparison: comparison, value: n))
        }
        return checks
    }

    /// The state flags of a scroll state.
    static let scrollFlags: Set<String> = ["dragging", "decelerating", "bouncing", "tracking"]

    /// `dragging==false offset=0,1200 velocity=0,0 speed<1` on session.info's `scroll`.
    static func scrollChecks(_ words: [String]) throws(SyntaxError) -> [ScrollCheck] {
        guard !words.isEmpty else {
            throw SyntaxError("expect … scroll: nothing to check (dragging==, decelerating==, bouncing==, tracking==, offset=, velocity=, speed<, current=)")
        }
        var checks: [ScrollCheck] = []
        for word in words {
            guard let (key, comparison, value) = Comparison.split(word) else {
                throw SyntaxError("'\(word)': expected KEY=VALUE (dragging, decelerating, bouncing, tracking, offset, velocity, speed, current)")
            }
            switch key {
            case _ where scrollFlags.contains(key):
                guard comparison == .equal || comparison == .notEqual, value == "true" || value == "false" else {
                    throw SyntaxError("'\(word)': expected \(key)==true|false (or !=)")
                }
                checks.append(.flag(key, comparison, value == "true"))
            case "offset", "velocity":
                guard comparison == .equal else { throw SyntaxError("'\(word)': \(key) is compared with = only") }
                let p = try CommandSyntax.point(value)
                checks.append(key == "offset" ? .offset(p) : .velocity(p))
            case "speed":
                checks.append(.speed(comparison, try number(value, word: word)))
            case "current":
                guard comparison == .equal else { throw SyntaxError("'\(word)': current is compared with = only") }
                checks.append(.current(try CommandSyntax.indexPath(value)))
            default:
                throw SyntaxError("'\(key)': unknown scroll state; known: dragging, decelerating, bouncing, tracking, offset, velocity, speed, current")
            }
        }
        return checks
    }

    static func sceneCheck(_ key: String, _ comparison: Comparison, _ value: String, word: String) throws(SyntaxError) -> SceneCheck {
        switch key {
        case "visible": return .visible(comparison, try number(value, word: word))
        case "time": return .time(comparison, try CommandSyntax.milliseconds(value))
        case "offset":
            guard comparison == .equal else { throw SyntaxError("'\(word)': offset is compared with = only") }
            return .offset(try CommandSyntax.point(value))
        default:
            guard comparison == .equal else { throw SyntaxError("'\(word)': contentSize is compared with = only") }
            let n = value.split(separator: value.contains(",") ? "," : "x").compactMap { Double($0) }
            guard n.count == 2 else { throw SyntaxError("'\(word)': expected contentSize=WIDTHxHEIGHT") }
            return .contentSize(Size(n[0], n[1]))
        }
    }

    static func number(_ text: String, word: String) throws(SyntaxError) -> Double {
        guard let n = Double(text), n.isFinite else { throw SyntaxError("'\(word)': expected a number") }
        return n
    }

    /// The identity as the protocol writes a transform (row-major).
    static let identity: [Double] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
}
