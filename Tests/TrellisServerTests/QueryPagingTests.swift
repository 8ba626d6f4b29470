import Foundation
import Testing
import TrellisCore
import TrellisProtocol

/// query.attributes over a rect holding more than a page: the reply stops at `limit` (10,000
/// by default) and says so, pages fetched with `after` add up to the whole rect without gaps or
/// repeats, and bad paging params are refused naming the range.
@Suite struct QueryPagingTests {
    typealias T = PersistenceTests

    static let everywhere: JSONValue = .array([T.n(-1e6), T.n(-1e6), T.n(1e9), T.n(1e9)])

    @Test func aRectOverManyItemsIsAnsweredAPageAtATime() throws {
        let server = try ServerProcess(arguments: ["--no-persistence"])
        let c = try server.connect()
        // Two sections with headers, footers and backgrounds; 12,000 items in all.
        let layout: JSONValue = .object(["type": .string("flow"), "itemSize": T.pair(10, 10), "headerSize": T.pair(0, 20),
                                         "footerSize": T.pair(0, 5), "sectionBackground": .bool(true)])
        try c.must("session.create", ["name": .string("q"), "clock": .string("manual"), "layout": layout,
                                      "sections": .array(T.items(7_000, prefix: "a", section: "s0").arrayValue! + T.items(5_000, prefix: "b", section: "s1").arrayValue!)])
        let first = try c.must("query.attributes", ["session": .string("q"), "rect": Self.everywhere])
        #expect(first["attributes"]?.arrayValue?.count == 10_000)
        #expect(first["truncated"] == .bool(true))

        // Pages of 999 add up to every element, in order, each once.
        var pages: [JSONValue] = []
        var after: JSONValue?
        while true {
            var params: [String: JSONValue] = ["session": .string("q"), "rect": Self.everywhere, "limit": T.n(999)]
            if let after { params["after"] = after }
            let page = try c.must("query.attributes", params)
            let list = page["attributes"]?.arrayValue ?? []
            pages += list
            guard page["truncated"] == .bool(true) else { break }
            #expect(list.count == 999)
            after = try #require(list.last?["element"])
        }
        let whole = try c.must("query.attributes", ["session": .string("q"), "rect": Self.everywhere, "limit": T.n(20_000)])
        #expect(whole["truncated"] == nil)
        let all = whole["attributes"]?.arrayValue ?? []
        #expect(all.count == 12_000 + 2 * 3)   // items, and per section a header, a footer and a background
        #expect(pages == all)
        // A page ending exactly at the end says nothing more is left.
        let exact = try c.must("query.attributes", ["session": .string("q"), "rect": Self.everywhere, "limit": T.n(Double(all.count))])
        #expect(exact["truncated"] == nil)
        // A rect that holds less than the default is answered whole, as before.
        let small = try c.must("query.attributes", ["session": .string("q"), "rect": .array([T.n(0), T.n(0), T.n(100), T.n(100)])])
        #expect(small["truncated"] == nil)
        server.stop()
    }

    @Test func badPagingParamsAreRefusedNamingTheRange() throws {
        let server = try ServerProcess(arguments: ["--no-persistence"])
        let c = try server.connect()
        try c.must("session.create", ["name": .string("q"), "clock": .string("manual"), "sections": T.items(10)])
        let cases: [(String, JSONValue, String)] = [
            ("limit", T.n(0), "params.limit: expected a whole number from 1 to 20000"),
            ("limit", T.n(-5), "params.limit: expected a whole number from 1 to 20000"),
            ("limit", T.n(20_001), "params.limit: expected a whole number from 1 to 20000"),
            ("limit", T.n(1e300), "params.limit: expected an integer"),
            ("limit", T.n(2.5), "params.limit: expected an integer"),
            ("limit", .string("10"), "params.limit: expected an integer"),
            ("after", .array([T.n(0), T.n(1)]), "params.after: expected an element object"),
            ("after", .object(["kind": .string("cell"), "section": T.n(-1), "item": T.n(0)]), "params.after: expected a section and item from 0 to 1000000000000"),
            ("after", .object(["kind": .string("cell"), "section": T.n(0), "item": T.n(1e13)]), "params.after: expected a section and item from 0 to 1000000000000"),
            ("after", .object(["kind": .string("cell"), "section": T.n(0), "item": T.n(0.5)]), "params.after.item: expected an integer"),
            ("after", .object(["kind": .string("tile"), "section": T.n(0)]), "params.after.kind: expected cell, supplementary, decoration or body"),
            ("after", .object(["kind": .string("cell"), "section": T.n(0), "item": T.n(0), "x": T.n(1)]), "unknown key 'x' in params.after"),
        ]
        for (key, value, expected) in cases {
            let reply = try c.call("query.attributes", ["session": .string("q"), "rect": Self.everywhere, key: value])
            #expect(reply["error"]?["code"] == T.n(-32602), "\(key) = \(JSONWriter.string(value))")
            let message = reply["error"]?["message"]?.stringValue ?? ""
            #expect(message.hasPrefix(expected), "\(message)")
        }
        // Checked with `at` too, where they are not used.
        let reply = try c.call("query.attributes", ["session": .string("q"), "at": T.pair(0, 1), "limit": T.n(0)])
        #expect((reply["error"]?["message"]?.stringValue ?? "").hasPrefix("params.limit: expected a whole number from 1 to 20000"))
        server.stop()
    }

    /// dynamics.list pages its lists the same way: a gravity over 25 items and two bodies, read
    /// 10 at a time, adds up to the whole list; a small session's reply is unchanged.
    @Test func dynamicsListPagesItsLists() throws {
        let server = try ServerProcess(arguments: ["--no-persistence"])
        let c = try server.connect()
        try c.must("session.create", ["name": .string("d"), "clock": .string("manual"), "sections": T.items(25)])
        let ids: [JSONValue] = (0..<25).map { .string("i\($0)") }
        try c.must("dynamics.add", ["session": .string("d"), "behavior": .object(["type": .string("gravity"), "items": .array(ids)])])
        for name in ["b0", "b1"] {
            try c.must("body.add", ["session": .string("d"), "body": .string(name), "center": T.pair(10, 10), "size": T.pair(5, 5)])
        }
        let whole = try c.must("dynamics.list", ["session": .string("d")])
        #expect(whole["items"]?.arrayValue?.count == 25)
        #expect(whole["truncated"] == nil && whole["counts"] == nil)
        var items: [JSONValue] = []
        for offset in stride(from: 0, to: 30, by: 10) {
            let page = try c.must("dynamics.list", ["session": .string("d"), "limit": T.n(10), "offset": T.n(Double(offset))])
            items += page["items"]?.arrayValue ?? []
            #expect(page["truncated"] == .bool(offset < 20), "offset \(offset)")
            #expect(page["counts"]?["items"] == T.n(25) && page["counts"]?["bodies"] == T.n(2) && page["counts"]?["behaviors"] == T.n(1))
            #expect(page["behaviors"]?.arrayValue?.count == (offset == 0 ? 1 : 0))
            #expect(page["bodies"]?.arrayValue?.count == (offset == 0 ? 2 : 0))
        }
        #expect(items == whole["items"]?.arrayValue)
        for (key, value, expected) in [("limit", T.n(0), "params.limit: expected a whole number from 1 to 20000"),
                                       ("offset", T.n(-1), "params.offset: expected a whole number from 0 to 1000000000000"),
                                       ("offset", .string("3"), "params.offset: expected an integer")] {
            let reply = try c.call("dynamics.list", ["session": .string("d"), key: value])
            #expect((reply["error"]?["message"]?.stringValue ?? "").hasPrefix(expected), "\(key)")
        }
        server.stop()
    }
}
