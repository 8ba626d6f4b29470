import Foundation
import TrellisClient
import TrellisCore
import TrellisProtocol

/// Text forms of server results: short lines a person reads and a script can grep, e.g.
/// `0:3 item3 frame=0,110,100,100 alpha=1`. Numbers go through `HumanNumber` (rounded for people);
/// `--json` prints the results untouched.
enum Human {
    static func number(_ value: JSONValue?) -> String {
        guard let n = value?.numberValue else { return value.map(JSONWriter.string) ?? "-" }
        return HumanNumber.format(n)
    }

    /// `[0,110,100,100]` → `0,110,100,100`.
    static func numbers(_ value: JSONValue?, separator: String = ",") -> String {
        guard case .array(let values)? = value else { return "-" }
        return values.map { number($0) }.joined(separator: separator)
    }

    /// `[0,3]` → `0:3`.
    static func path(_ value: JSONValue?) -> String { numbers(value, separator: ":") }

    /// Index paths, with runs of consecutive items in one section shortened to `0:0..9`.
    static func paths(_ value: JSONValue?) -> String {
        guard case .array(let values)? = value else { return "" }
        var runs: [(section: Int, first: Int, last: Int)] = []
        for v in values {
            guard case .array(let p) = v, p.count == 2, let s = p[0].numberValue, let i = p[1].numberValue else { continue }
            let section = Int(s), item = Int(i)
            if let last = runs.last, last.section == section, last.last + 1 == item {
                runs[runs.count - 1].last = item
            } else {
                runs.append((section, item, item))
            }
        }
        return runs.map { $0.first == $0.last ? "\($0.section):\($0.first)" : "\($0.section):\($0.first)..\($0.last)" }
            .joined(separator: " ")
    }

    /// `{kind, section, item?, id?, elementKind?}` → `0:3 item3`, or `header 0` for a supplementary view.
    static func element(_ e: JSONValue?) -> String {
        guard let e else { return "-" }
        if e["kind"]?.stringValue == "body" { return "body:" + (e["id"]?.stringValue ?? "?") }
        let section = number(e["section"])
        if let item = e["item"] {
            var text = "\(section):\(number(item))"
            if let id = e["id"]?.stringValue { text += " \(id)" }
            return text
        }
        return "\(e["elementKind"]?.stringValue ?? e["kind"]?.stringValue ?? "element") \(section)"
    }

    /// An attributes object or scene view: element, frame, alpha, and what differs from the defaults.
    static func attributes(_ a: JSONValue) -> String {
        var text = "\(element(a["element"])) frame=\(numbers(a["frame"])) alpha=\(number(a["alpha"]))"
        if let z = a["zIndex"]?.numberValue, z != 0 { text += " z=\(HumanNumber.format(z))" }
        if a["hidden"] == .bool(true) { text += " hidden" }
        if a["transform"] != nil { text += " transform=\(numbers(a["transform"]))" }
        if let view = a["view"] { text += " view=\(number(view))" }
        return text
    }

    /// A session's info in one line (ls, new).
    static func session(_ info: JSONValue) -> String {
        let items = number(info["items"]), sections = number(info["sections"]), viewers = number(info["viewers"])
        return "\(info["name"]?.stringValue ?? "?"): \(info["layout"]?.stringValue ?? "?") \(numbers(info["bounds"], separator: "x")), "
            + "\(items) item\(items == "1" ? "" : "s") in \(sections) section\(sections == "1" ? "" : "s"), "
            + "\(info["clock"]?.stringValue ?? "?") clock, \(viewers) viewer\(viewers == "1" ? "" : "s")" + stepRate(info["dynamicsStepRate"])
    }

    /// `, dynamics at 120 Hz` for a rate other than the default 60 (which goes unsaid).
    static func stepRate(_ rate: JSONValue?) -> String {
        guard let rate, rate != .number(60) else { return "" }
        return ", dynamics at \(number(rate)) Hz"
    }

    /// `key: value` lines, nested objects flattened with dots (`pool.cell.created: 12`).
    static func fields(_ value: JSONValue, prefix: String = "") -> [String] {
        guard case .object(let members) = value else { return [prefix.isEmpty ? JSONWriter.string(value) : "\(prefix): \(JSONWriter.string(value))"] }
        var lines: [String] = []
        for key in members.keys.sorted() {
            let name = prefix.isEmpty ? key : "\(prefix).\(key)"
            switch members[key]! {
            case .object: lines += fields(members[key]!, prefix: name)
            case .string(let s): lines.append("\(name): \(s)")
            case .number(let n): lines.append("\(name): \(HumanNumber.format(n))")
            case .array(let values) where values.allSatisfy({ $0.numberValue != nil }):
                lines.append("\(name): \(numbers(members[key]))")
            case let other: lines.append("\(name): \(JSONWriter.string(other))")
            }
        }
        return lines
    }

    /// A batch or snapshot result: `update 2: inserted 0:0..9; deleted 0:3; moved 0:5>0:7`.
    static func update(_ r: JSONValue) -> [String] {
        var parts: [String] = []
        for (key, label) in [("inserted", "inserted"), ("deleted", "deleted"), ("reloaded", "reloaded"), ("moved", "moved")] {
            guard case .array(let values)? = r[key], !values.isEmpty else { continue }
            if key == "moved" || key == "reloaded" {
                let pairs = values.map { v -> String in
                    guard case .array(let p) = v, p.count == 2 else { return "?" }
                    return key == "reloaded" && p[0] == p[1] ? path(p[0]) : "\(path(p[0]))>\(path(p[1]))"
                }
                parts.append("\(label) \(pairs.joined(separator: " "))")
            } else {
                parts.append("\(label) \(paths(r[key]))")
            }
        }
        for (key, label) in [("insertedSections", "inserted sections"), ("deletedSections", "deleted sections"),
                             ("reloadedSections", "reloaded sections"), ("movedSections", "moved sections")] {
            guard case .array(let values)? = r[key], !values.isEmpty else { continue }
            let text = values.map { v -> String in
                if case .array(let p) = v, p.count == 2 { return key == "reloadedSections" && p[0] == p[1] ? number(p[0]) : "\(number(p[0]))>\(number(p[1]))" }
                return number(v)
            }
            parts.append("\(label) \(text.joined(separator: " "))")
        }
        return ["update \(number(r["update"])): " + (parts.isEmpty ? "no changes" : parts.joined(separator: "; "))]
    }

    /// `offset=0,400 contentSize=375,1100`.
    static func offset(_ r: JSONValue) -> [String] {
        ["offset=\(numbers(r["contentOffset"])) contentSize=\(numbers(r["contentSize"]))"]
    }

    /// A behaviour's element in any of the protocol's forms: `i3`, `body:panel`.
    static func dynamicElement(_ e: JSONValue) -> String {
        DynamicElement(wire: e).map(\.argument) ?? JSONWriter.string(e)
    }

    /// A value in a `key=value` word: numbers and lists of numbers as the other lines write
    /// them, elements as `body:panel`, anything else as JSON.
    static func setting(_ key: String, _ value: JSONValue) -> String {
        switch value {
        case .number: return number(value)
        case .string(let s): return s
        case .bool(let b): return "\(b)"
        case .array(let values) where values.allSatisfy({ $0.numberValue != nil }): return numbers(value)
        case .object where key == "attachedTo" || key == "item": return dynamicElement(value)
        default: return JSONWriter.string(value)
        }
    }

    /// `dynamics.item`: `i3 dynamic center=187.5,400 size=100,100 angle=0 velocity=0,0 angularVelocity=0`,
    /// numbers to 1/1000 (the simulation's own carry float noise: 999.9999999999991).
    static func dynamicState(_ r: JSONValue) -> [String] {
        func milli(_ v: JSONValue?) -> String {
            guard let n = v?.numberValue else { return number(v) }
            let r = (n * 1000).rounded() / 1000
            return HumanNumber.format(r)
        }
        func pair(_ v: JSONValue?) -> String { (v?.arrayValue ?? []).map(milli).joined(separator: ",") }
        let element = r["element"].map(dynamicElement) ?? "?"
        let state = r["dynamic"] == .bool(true) ? "dynamic" : "not dynamic"
        return ["\(element) \(state) center=\(pair(r["center"])) size=\(pair(r["size"])) angle=\(milli(r["angle"])) "
                + "velocity=\(pair(r["velocity"])) angularVelocity=\(milli(r["angularVelocity"]))"]
    }

    /// `dynamics.list` as a table: whether the animator runs, then one behaviour per line.
    static func behaviors(_ r: JSONValue) -> [String] {
        let behaviors = r["behaviors"]?.arrayValue ?? []
        var rows: [[String]] = [["ID", "TYPE", "ELEMENTS", "SETTINGS"]]
        for b in behaviors {
            var elements = (b["items"]?.arrayValue ?? []).map(dynamicElement)
            if let item = b["item"] { elements.insert(dynamicElement(item), at: 0) }
            guard case .object(let members) = b else { continue }
            let settings = members.keys.sorted().filter { !["behavior", "type", "items", "item"].contains($0) }
                .map { "\($0)=\(setting($0, members[$0]!))" }
            rows.append([number(b["behavior"]), b["type"]?.stringValue ?? "?",
                         elements.isEmpty ? "-" : elements.joined(separator: " "), settings.joined(separator: " ")])
        }
        let items = (r["items"]?.arrayValue ?? []).map(dynamicElement)
        var lines = ["running: \(r["running"] == .bool(true))", "items: " + (items.isEmpty ? "none" : items.joined(separator: " "))]
        // A cut page says how much it left out rather than pretending to be everything.
        if r["truncated"] == .bool(true), let counts = r["counts"] {
            lines.append("(a page of \(number(counts["behaviors"])) behaviours, \(number(counts["items"])) items, "
                         + "\(number(counts["bodies"])) bodies; more with --offset)")
        }
        // The default goes unsaid, as in the session's line.
        if let rate = r["stepRate"], rate != .number(60) { lines.insert("step rate: \(number(rate)) Hz", at: 1) }
        if let bodies = r["bodies"]?.arrayValue, !bodies.isEmpty {
            lines.append("bodies: " + bodies.map { $0.stringValue ?? JSONWriter.string($0) }.joined(separator: " "))
        }
        guard behaviors.count > 0 else { return lines + ["no behaviours"] }
        let widths = (0..<3).map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            let padded = (0..<3).map { row[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }
            lines.append((padded + [row[3]]).joined(separator: "  ").trimmingTrailingSpaces)
        }
        return lines
    }

    static func selected(_ r: JSONValue) -> String {
        guard case .array(let ids)? = r["selected"], !ids.isEmpty else { return "selected: none" }
        return "selected: " + ids.map { $0.stringValue ?? JSONWriter.string($0) }.joined(separator: " ")
    }
}

extension String {
    var trimmingTrailingSpaces: String {
        var s = Substring(self)
        while s.last == " " { s.removeLast() }
        return String(s)
    }
}

extension Human {
    /// A scroll state (gesture replies, session.info's `scroll`):
    /// `offset=0,1200 velocity=0,-2400 decelerating`, or `… at rest`, and `current=0:3` when
    /// the layout has a current item.
    static func scrollState(_ r: JSONValue) -> [String] {
        let s = r["contentOffset"] == nil ? (r["scroll"] ?? r) : r
        let flags = ["tracking", "dragging", "decelerating", "bouncing"].filter { s[$0] == .bool(true) }
        var line = "offset=\(numbers(s["contentOffset"])) velocity=\(numbers(s["velocity"])) " + (flags.isEmpty ? "at rest" : flags.joined(separator: " "))
        if case .array(let path)? = s["currentItem"], path.count == 2, let section = path[0].numberValue, let item = path[1].numberValue {
            line += " current=\(Int(section)):\(Int(item))"
        }
        return [line]
    }
}
