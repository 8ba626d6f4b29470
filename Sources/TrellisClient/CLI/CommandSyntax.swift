import TrellisCore
import TrellisProtocol

/// A command-line value that does not parse, with what was expected (a usage error, exit 64).
public struct SyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The CLI's small value grammar: index paths `S:I`, ranges `S:I..J` (inclusive), sizes
/// `WxH`, points `X,Y`, rects `X,Y,W,H`, durations `16ms`/`0.5s`, moves `S:I:S:I`, inserts
/// `S:I=id`, sections `N` or `N=id`.
public enum CommandSyntax {
    /// `section:item`, both whole numbers.
    public static func indexPath(_ text: String) throws(SyntaxError) -> IndexPath {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let s = whole(parts[0]), let i = whole(parts[1]) else {
            if parts.count == 2, let s = Int(parts[0]), let i = Int(parts[1]), s < 0 || i < 0 {
                throw SyntaxError("'\(text)': sections and items are numbered from 0, so neither part of an index path can be negative")
            }
            throw SyntaxError("'\(text)': expected an index path section:item, e.g. 0:3")
        }
        return IndexPath(s, i)
    }

    /// `S:I` or the inclusive range `S:I..J` (the items I through J of section S).
    public static func indexPaths(_ text: String) throws(SyntaxError) -> [IndexPath] {
        guard let dots = text.firstRange(of: "..") else { return [try indexPath(text)] }
        let first = try indexPath(String(text[..<dots.lowerBound]))
        guard let last = whole(text[dots.upperBound...]) else {
            throw SyntaxError("'\(text)': expected a range section:first..last, e.g. 0:0..9")
        }
        guard last >= first.item else {
            throw SyntaxError("'\(text)': the range ends (\(last)) before it starts (\(first.item))")
        }
        guard last - first.item < 1_000_000 else { throw SyntaxError("'\(text)': a range of at most 1000000 items") }
        return (first.item...last).map { IndexPath(first.section, $0) }
    }

    /// `WxH` (or `W,H`), both positive.
    public static func size(_ text: String) throws(SyntaxError) -> Size {
        let separator: Character = text.contains(",") ? "," : (text.contains("X") ? "X" : "x")
        let parts = text.split(separator: separator, omittingEmptySubsequences: false)
        guard parts.count == 2, let w = number(parts[0]), let h = number(parts[1]), w > 0, h > 0 else {
            throw SyntaxError("'\(text)': expected a size WIDTHxHEIGHT of positive numbers, e.g. 375x812")
        }
        return Size(w, h)
    }

    /// `X,Y`.
    public static func point(_ text: String) throws(SyntaxError) -> Point {
        let n = try numbers(text, count: 2, example: "a point X,Y, e.g. 120,300")
        return Point(n[0], n[1])
    }

    /// `X,Y,W,H`.
    public static func rect(_ text: String) throws(SyntaxError) -> Rect {
        let n = try numbers(text, count: 4, example: "a rect X,Y,WIDTH,HEIGHT, e.g. 0,0,375,812")
        guard n[2] >= 0, n[3] >= 0 else { throw SyntaxError("'\(text)': a rect's width and height must be 0 or more") }
        return Rect(n[0], n[1], n[2], n[3])
    }

    /// Insets `TOP,LEFT,BOTTOM,RIGHT`, or one number for all four.
    public static func insets(_ text: String) throws(SyntaxError) -> EdgeInsets {
        if let all = number(Substring(text)) { return EdgeInsets(top: all, left: all, bottom: all, right: all) }
        let n = try numbers(text, count: 4, example: "insets TOP,LEFT,BOTTOM,RIGHT or one number, e.g. 10,10,10,10")
        return EdgeInsets(top: n[0], left: n[1], bottom: n[2], right: n[3])
    }

    /// A duration in milliseconds: `16ms`, `0.5s`, or a bare number of milliseconds.
    public static func milliseconds(_ text: String) throws(SyntaxError) -> Double {
        var body = Substring(text.trimmingSpaces)
        var scale = 1.0
        if body.hasSuffix("ms") { body = body.dropLast(2) } else if body.hasSuffix("s") { body = body.dropLast(); scale = 1000 }
        guard let n = number(body), n >= 0 else {
            throw SyntaxError("'\(text)': expected a duration such as 16ms or 0.5s")
        }
        return n * scale
    }

    /// A duration in seconds: `0.3`, `300ms` or `0.3s` (a bare number is seconds here, as
    /// UIKit's animation durations are).
    public static func seconds(_ text: String) throws(SyntaxError) -> Double {
        let t = text.trimmingSpaces
        if t.hasSuffix("ms") || t.hasSuffix("s") { return try milliseconds(t) / 1000 }
        guard let n = number(Substring(t)), n >= 0 else { throw SyntaxError("'\(text)': expected a duration in seconds such as 0.3 (or 300ms)") }
        return n
    }

    /// `S:I:S:I` (from, to); `S:I>S:I` also reads.
    public static func move(_ text: String) throws(SyntaxError) -> (from: IndexPath, to: IndexPath) {
        if let arrow = text.firstIndex(of: ">") {
            return (try indexPath(String(text[..<arrow])), try indexPath(String(text[text.index(after: arrow)...])))
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 4 else {
            throw SyntaxError("'\(text)': expected a move from:to as section:item:section:item, e.g. 0:5:0:7")
        }
        return (try indexPath("\(parts[0]):\(parts[1])"), try indexPath("\(parts[2]):\(parts[3])"))
    }

    /// An insertion: `S:I=id` (one item with that id), or `S:I` / `S:I..J` (ids generated).
    public static func insertion(_ text: String) throws(SyntaxError) -> (paths: [IndexPath], id: String?) {
        guard let equals = text.firstIndex(of: "=") else { return (try indexPaths(text), nil) }
        let id = String(text[text.index(after: equals)...])
        guard !id.isEmpty else { throw SyntaxError("'\(text)': expected an item id after '='") }
        return ([try indexPath(String(text[..<equals]))], id)
    }

    /// A section index `N`, or `N=id` naming the new section.
    public static func section(_ text: String) throws(SyntaxError) -> (index: Int, id: String?) {
        let head = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard let index = whole(head[0]) else { throw SyntaxError("'\(text)': expected a section index, e.g. 1 (or 1=id)") }
        if head.count == 2 {
            guard !head[1].isEmpty else { throw SyntaxError("'\(text)': expected a section id after '='") }
            return (index, String(head[1]))
        }
        return (index, nil)
    }

    /// `FROM:TO` section indexes.
    public static func sectionMove(_ text: String) throws(SyntaxError) -> (from: Int, to: Int) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let from = whole(parts[0]), let to = whole(parts[1]) else {
            throw SyntaxError("'\(text)': expected a section move from:to, e.g. 1:0")
        }
        return (from, to)
    }

    /// Item counts per section: `50`, or `10,5` for two sections.
    public static func counts(_ text: String) throws(SyntaxError) -> [Int] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        var counts: [Int] = []
        for part in parts {
            guard let n = whole(part), n <= 10_000_000 else {
                throw SyntaxError("'\(text)': expected item counts, e.g. 50 or 10,5 (one per section)")
            }
            counts.append(n)
        }
        return counts
    }

    /// A JSON value written on the command line (`--data '{"label": "x"}'`); `what` names the
    /// option in the message.
    public static func json(_ text: String, what: String) throws(SyntaxError) -> JSONValue {
        let bytes = Array(text.utf8)
        do { return try JSONParser.parse(bytes) } catch {
            throw SyntaxError("\(what) '\(text)': not JSON: \(error.message)")
        }
    }

    /// `S:I` as printed.
    public static func format(_ path: IndexPath) -> String { "\(path.section):\(path.item)" }

    // MARK: Helpers

    static func whole(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 15, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }

    static func number(_ text: Substring) -> Double? {
        let trimmed = Substring(String(text).trimmingSpaces)
        guard !trimmed.isEmpty, let n = Double(trimmed), n.isFinite else { return nil }
        return n
    }

    static func numbers(_ text: String, count: Int, example: String) throws(SyntaxError) -> [Double] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        var result: [Double] = []
        for part in parts {
            guard let n = number(part) else { throw SyntaxError("'\(text)': expected \(example)") }
            result.append(n)
        }
        guard result.count == count else { throw SyntaxError("'\(text)': expected \(example)") }
        return result
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return String(s)
    }
}
