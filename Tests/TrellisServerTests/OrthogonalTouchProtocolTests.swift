import Testing
@testable import TrellisServer
import TrellisProtocol
import TrellisCore

/// Over a real socket: `gesture.touch` down `at` a point inside a flung orthogonal band stops it
/// where it is (a bad point is refused and catches nothing), and a viewer gets the band's own
/// scroll.band.* notifications naming its section. Geometry: `OrthogonalScrollProtocolTests`'
/// strip as section 0, so its band is y 10…110 of the 375 × 600 view, range 0…735.
@Suite struct OrthogonalTouchProtocolTests {
    static func strip(_ state: JSONValue) -> JSONValue? {
        guard case .array(let bands)? = state["orthogonal"] else { return nil }
        return bands.first { $0["id"] == .string("strip") }
    }

    @Test func aTouchInsideAFlungBandCatchesItAndViewersHearTheBand() throws {
        let server = try ServerProcess()
        let c = try server.connect(), viewer = try server.connect()
        let s: JSONValue = .string("o")
        try c.result("session.create", ["name": s, "clock": .string("manual"), "bounds": .array([.number(375), .number(600)]),
                                        "layout": try JSONParser.parse(OrthogonalScrollProtocolTests.layout)])
        try c.result("data.reload", ["session": s, "sections": .array(["strip", "rows"].map { id in
            .object(["id": .string(id), "items": .array((0..<10).map { .object(["id": .string("\(id)\($0)")]) })])
        })])
        try viewer.result("session.attach", ["session": s, "events": .array([.string("scroll.band.didScroll")])])
        func pan(_ phase: String, _ dx: Double, velocity: Double = 0, location: Bool = false) throws -> JSONValue {
            var params: [String: JSONValue] = ["session": s, "phase": .string(phase), "translation": .array([.number(dx), .number(0)]),
                                               "velocity": .array([.number(velocity), .number(0)])]
            if location { params["location"] = .array([.number(200), .number(50)]) }
            return try c.result("gesture.pan", params)
        }
        _ = try pan("began", 0, location: true)
        _ = try pan("changed", -100)
        let released = try pan("ended", -100, velocity: -500)
        #expect(Self.strip(released)?["moving"] == .bool(true))
        try c.result("clock.advance", ["session": s, "ms": .number(100)])
        // A point out of range is refused and catches nothing.
        let bad = try c.call("gesture.touch", ["session": s, "phase": .string("down"), "at": .array([.number(200), .number(1e12)])])
        #expect(bad["error"]?["code"] == .number(-32602))
        let moving = try c.result("session.info", ["session": s])["scroll"] ?? .null
        #expect(Self.strip(moving)?["moving"] == .bool(true))
        // Down inside the band: it stops where it is, and stays through time and the lift.
        let caught = try c.result("gesture.touch", ["session": s, "phase": .string("down"), "at": .array([.number(200), .number(50)])])
        let band = try #require(Self.strip(caught))
        #expect(band["moving"] == .bool(false))
        let offset = try #require(band["offset"]?.numberValue)
        #expect(offset > 100 && offset < 735)
        try c.result("clock.advance", ["session": s, "ms": .number(500)])
        let lifted = try c.result("gesture.touch", ["session": s, "phase": .string("up")])
        #expect(Self.strip(lifted)?["offset"] == .number(offset) && Self.strip(lifted)?["moving"] == .bool(false))
        let scene = try c.result("query.scene", ["session": s])
        #expect(scene["orthogonal"] == .array([.object(["section": .number(0), "offset": .number(offset)])]))
        // The viewer heard the band's drag, its scrolls and no main scroll callbacks, in order.
        _ = try viewer.result("hello")
        let heard = viewer.notifications.compactMap { $0["method"]?.stringValue }.filter { $0.hasPrefix("scroll.") }
        #expect(heard.first == "scroll.band.willBeginDragging")
        #expect(heard.contains("scroll.band.didScroll"))
        let ends = heard.filter { $0 != "scroll.band.didScroll" }
        #expect(ends == ["scroll.band.willBeginDragging", "scroll.band.willEndDragging", "scroll.band.didEndDragging"])
        for note in viewer.notifications where note["method"]?.stringValue?.hasPrefix("scroll.band.") == true {
            #expect(note["params"]?["section"] == .number(0) && note["params"]?["id"] == .string("strip"), "\(JSONWriter.string(note))")
        }
        let last = viewer.notifications.last { $0["method"] == .string("scroll.band.didScroll") }
        #expect(last?["params"]?["offset"] == .number(offset))
        server.stop()
    }
}
