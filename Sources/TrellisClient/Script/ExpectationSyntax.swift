import TrellisCore

/// Reads the words of an `expect` line (after the word `expect`) into an `Expectation`.
///
/// ```
/// expect NAME [scene] ELEMENT KEY=VALUE… [tolerance=T]   one element (model, or scene = on screen)
/// expect NAME visible=12 offset=0,400 …                  the scene as a whole
/// expect NAME pool.cell.created<=20 animating==0 …       stats {session}, by dotted path
/// expect NAME scene == FILE.json [tolerance=T]           the whole scene against a file
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
        if word.hasPrefix("item:") {
            let id = String(word.dropFirst(5))
            guard !id.isEmpty else { throw SyntaxError("'\(word)': expected item:ID") }
            return .item(id)
        }
        for kind in ["header", "footer", "background"] where word.hasPrefix(kind + ":") {
            guard let section = Int(word.dropFirst(kind.count + 1)), section >= 0 else {
                throw SyntaxError("'\(word)': expected \(kind):SECTION")
            }
            return .supplementary(kind: kind, section: section)
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
