import Foundation
import Testing
import TrellisCore
import TrellisProtocol
@testable import TrellisServer

/// Sessions survive restarts: trellisd killed with SIGKILL right after acknowledged replies and
/// started again on the same state directory brings back what was acknowledged.
@Suite(.serialized) struct PersistenceTests {
    typealias P = [String: JSONValue]

    static func n(_ x: Double) -> JSONValue { .number(x) }
    static func pair(_ a: Double, _ b: Double) -> JSONValue { .array([n(a), n(b)]) }
    static func items(_ count: Int, prefix: String = "i", section: String = "s0") -> JSONValue {
        .array([.object(["id": .string(section), "items": .array((0..<count).map {
            .object(["id": .string("\(prefix)\($0)"), "data": .object(["label": .string("\(prefix)\($0)")])])
        })])])
    }
    static func flow(_ side: Double, extra: P = [:]) -> JSONValue {
        .object(["type": .string("flow"), "itemSize": pair(side, side)].merging(extra) { $1 })
    }

    /// A manual session taken through data, batches, scrolling, selection and layout changes,
    /// stopped with animations in flight.
    static func driveManual(_ c: RPCConnection, name: String) throws {
        let s: JSONValue = .string(name)
        try c.must("session.create", ["name": s, "clock": .string("manual"), "bounds": pair(375, 812),
                                        "layout": flow(100, extra: ["headerSize": pair(0, 30), "pinHeaders": .bool(true)])])
        try c.must("data.reload", ["session": s, "sections": items(40)])
        try c.must("scroll.to", ["session": s, "offset": pair(0, 300)])
        try c.must("batch", ["session": s, "duration": n(0.3), "curve": .string("easeOut"), "ops": .array([
            .object(["op": .string("deleteItems"), "at": .array([pair(0, 3), pair(0, 4)])]),
            .object(["op": .string("insertItems"), "at": .array([pair(0, 0)]), "items": .array([.object(["id": .string("new")])])]),
        ])])
        try c.must("clock.advance", ["session": s, "ms": n(100)])
        try c.must("select", ["session": s, "at": pair(0, 5)])
        try c.must("layout.set", ["session": s, "layout": flow(80), "animated": .bool(true), "duration": n(0.5)])
        try c.must("clock.advance", ["session": s, "ms": n(120)])
        try c.must("gesture.tap", ["session": s, "point": pair(40, 340)])
        try c.must("data.apply", ["session": s, "sections": items(12, prefix: "j"), "duration": n(0.4)])
        try c.must("clock.advance", ["session": s, "ms": n(50)])
    }

    static func scene(_ c: RPCConnection, _ name: String) throws -> JSONValue {
        try c.must("query.scene", ["session": .string(name)])
    }

    static func attributes(_ c: RPCConnection, _ name: String) throws -> JSONValue {
        try c.must("query.attributes", ["session": .string(name), "rect": .array([n(-1000), n(-1000), n(5000), n(5000)])])
    }

    /// A scene without what a restart does not keep: view ids (and, for live sessions, time).
    /// Views are sorted, since ties in drawing order fall back on view ids.
    static func normalized(_ scene: JSONValue, keepTime: Bool = false) -> JSONValue {
        guard case .object(var o) = scene, case .array(let views)? = o["views"] else { return scene }
        o["views"] = .array(views.map { v -> JSONValue in
            guard case .object(var members) = v else { return v }
            members["view"] = nil
            return .object(members)
        }.sorted { JSONWriter.string($0) < JSONWriter.string($1) })
        if !keepTime { o["time"] = nil }
        return .object(o)
    }

    /// session.list without what is not persistent for live sessions (their time is real time).
    static func sessionList(_ c: RPCConnection, liveTime: Bool = false) throws -> JSONValue {
        guard case .array(let sessions)? = try c.result("session.list")["sessions"] else { return .null }
        return .array(sessions.map { s in
            guard case .object(var o) = s else { return s }
            if !liveTime && o["clock"] == .string("live") { o["time"] = nil }
            return .object(o)
        })
    }

    static func waitForExit(_ server: ServerProcess) {
        let deadline = Date().addingTimeInterval(5)
        while server.process.isRunning && Date() < deadline { usleep(10_000) }
    }

    /// Waits while a snapshot is being written off the loop (`stats.persistence.compacting`),
    /// so the test sees the files as a compaction leaves them, with no line journaled meanwhile.
    static func settled(_ c: RPCConnection) throws {
        for _ in 0..<5000 {
            if try c.result("stats")["persistence"]?["compacting"] != .bool(true) { return }
            usleep(1000)
        }
        Issue.record("a snapshot was still being written off the loop after 5 s")
    }

    static func fileSize(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : -1
    }

    // MARK: Crash and restart

    @Test func manualSessionComesBackExactlyAfterKill() throws {
        let first = try ServerProcess()
        let c = try first.connect()
        try Self.driveManual(c, name: "m")
        let refused = try c.call("batch", ["session": .string("m"), "ops": .array([
            .object(["op": .string("deleteItems"), "at": .array([Self.pair(0, 999)])])])])
        #expect(refused["error"]?["data"]?["code"] == .string("invalid_update"))
        #expect(refused["error"]?["message"]?.stringValue?.contains("attempt to delete item 999 from section 0") == true,
                "\(refused)")
        let scene = try Self.scene(c, "m")
        let attributes = try Self.attributes(c, "m")
        let list = try Self.sessionList(c, liveTime: true)
        #expect(try c.result("stats", ["session": .string("m")])["animating"] == .bool(true))
        first.crash()

        let second = try ServerProcess(directory: first.scratch)
        let d = try second.connect()
        // Replayed command for command, the manual clock included: the very same scene, view ids
        // and animations in flight too.
        #expect(try Self.scene(d, "m") == scene)
        #expect(try Self.attributes(d, "m") == attributes)
        #expect(try Self.sessionList(d, liveTime: true) == list)
        #expect(try d.result("stats", ["session": .string("m")])["animating"] == .bool(true))
        second.stop()
    }

    @Test func liveSessionLandsItsAnimationsAfterKill() throws {
        let first = try ServerProcess()
        let c = try first.connect()
        // The same commands on a live session and on a manual one that is then advanced far: the
        // live one, killed mid-animation, must come back as the manual one landed.
        for (name, clock) in [("live", "live"), ("ref", "manual")] {
            let s: JSONValue = .string(name)
            try c.must("session.create", ["name": s, "clock": .string(clock), "layout": Self.flow(90)])
            try c.must("data.reload", ["session": s, "sections": Self.items(50)])
            try c.must("batch", ["session": s, "duration": Self.n(0.4), "ops": .array([
                .object(["op": .string("moveItem"), "from": Self.pair(0, 1), "to": Self.pair(0, 7)]),
                .object(["op": .string("deleteItems"), "at": .array([Self.pair(0, 2)])]),
            ])])
            try c.must("scroll.toItem", ["session": s, "at": Self.pair(0, 20), "position": .string("centeredVertically")])
            try c.must("select", ["session": s, "at": Self.pair(0, 21)])
            try c.must("layout.set", ["session": s, "layout": .object(["type": .string("circle"), "radius": Self.n(150)]),
                                        "animated": .bool(true), "duration": Self.n(2)])
        }
        let attributes = try Self.attributes(c, "live")
        #expect(try c.result("stats", ["session": .string("live")])["animating"] == .bool(true))
        first.crash()

        let second = try ServerProcess(directory: first.scratch)
        let d = try second.connect()
        #expect(try d.result("stats", ["session": .string("live")])["animating"] == .bool(false))
        try d.must("clock.advance", ["session": .string("ref"), "ms": Self.n(5000)])
        #expect(Self.normalized(try Self.scene(d, "live")) == Self.normalized(try Self.scene(d, "ref")))
        #expect(try Self.attributes(d, "live") == attributes)
        let info = try d.result("session.info", ["session": .string("live")])
        #expect(info["layout"] == .string("circle") && info["items"] == Self.n(49))
        // The live clock runs on from where it landed: a new animation plays and ends.
        try d.must("scroll.to", ["session": .string("live"), "offset": Self.pair(0, 0)])
        try d.must("batch", ["session": .string("live"), "duration": Self.n(1), "ops": .array([
            .object(["op": .string("insertItems"), "at": .array([Self.pair(0, 0)]), "items": .array([.object(["id": .string("x")])])])])])
        #expect(try d.result("stats", ["session": .string("live")])["animating"] == .bool(true))
        usleep(1_300_000)
        #expect(try d.result("stats", ["session": .string("live")])["animating"] == .bool(false))
        second.stop()
    }

    @Test func destroyedSessionsAndRefusedChangesStayThatWay() throws {
        let first = try ServerProcess()
        let c = try first.connect()
        for name in ["a", "b"] {
            try c.must("session.create", ["name": .string(name), "clock": .string("manual"), "sections": Self.items(5)])
        }
        try c.must("session.destroy", ["session": .string("a")])
        // Each refused for its own reason, and none journaled.
        #expect(try c.call("session.create", ["name": .string("b")])["error"]?["data"]?["code"] == .string("session_exists"))
        #expect(try c.call("select", ["session": .string("b"), "at": Self.pair(0, 9)])["error"]?["data"]?["code"] == .string("out_of_range"))
        let negative = try c.call("clock.advance", ["session": .string("b"), "ms": Self.n(-1)])["error"]
        #expect(negative?["code"] == Self.n(-32602) && negative?["message"]?.stringValue?.contains("params.ms") == true)
        try c.must("session.attach", ["session": .string("b")])   // viewers do not persist
        let scene = try Self.scene(c, "b")
        first.crash()

        let second = try ServerProcess(directory: first.scratch)
        let d = try second.connect()
        let names = try d.result("session.list")["sessions"].map { list -> [JSONValue] in
            guard case .array(let sessions) = list else { return [] }
            return sessions.compactMap { $0["name"] }
        }
        #expect(names == [.string("b")])
        #expect(try Self.scene(d, "b") == scene)
        #expect(try d.result("session.info", ["session": .string("b")])["viewers"] == Self.n(0))
        second.stop()
    }

    @Test(arguments: ["always", "everysec", "no"])
    func everyFsyncPolicyRestores(policy: String) throws {
        let first = try ServerProcess(arguments: ["--fsync", policy])
        let c = try first.connect()
        try Self.driveManual(c, name: "m")
        let scene = try Self.scene(c, "m")
        first.crash()
        let second = try ServerProcess(arguments: ["--fsync", policy], directory: first.scratch)
        #expect(try Self.scene(try second.connect(), "m") == scene)
        second.stop()
    }

    @Test func gracefulStopRestoresToo() throws {
        let first = try ServerProcess()
        let c = try first.connect()
        try Self.driveManual(c, name: "m")
        let scene = try Self.scene(c, "m")
        try c.must("shutdown")
        Self.waitForExit(first)
        let second = try ServerProcess(directory: first.scratch)
        #expect(try Self.scene(try second.connect(), "m") == scene)
        second.stop()
    }

    @Test func noPersistenceKeepsNothing() throws {
        let first = try ServerProcess(arguments: ["--no-persistence"])
        try first.connect().must("session.create", ["name": .string("gone")])
        first.crash()
        let second = try ServerProcess(arguments: ["--no-persistence"], directory: first.scratch)
        #expect(try second.connect().result("session.list")["sessions"] == .array([]))
        #expect(try second.connect().result("stats")["persistence"] == .null)
        #expect(access(first.directory + "/state", F_OK) != 0)
        second.stop()
    }

    // MARK: Damaged journals

    @Test func tornLastLineIsDroppedAndLaterLinesStillRestore() throws {
        let first = try ServerProcess()
        let c = try first.connect()
        try Self.driveManual(c, name: "m")
        let scene = try Self.scene(c, "m")
        first.crash()
        let journal = first.directory + "/state/journal.ndjson"
        let handle = try #require(FileHandle(forWritingAtPath: journal))
        handle.seekToEndOfFile()
        handle.write(Data(#"{"seq":999,"method":"batch","params":{"session":"m","op"#.utf8))
        handle.closeFile()

        let second = try ServerProcess(directory: first.scratch)
        let d = try second.connect()
        #expect(try Self.scene(d, "m") == scene)
        #expect(second.stderrText.contains("dropped an incomplete last line"))
        // The torn bytes were cut off, so the next line starts cleanly.
        try d.must("deselect", ["session": .string("m"), "at": Self.pair(0, 0)])
        try d.must("clock.advance", ["session": .string("m"), "ms": Self.n(1000)])
        let later = try Self.scene(d, "m")
        second.crash()
        let third = try ServerProcess(directory: first.scratch)
        #expect(try Self.scene(try third.connect(), "m") == later)
        third.stop()
    }

    @Test func damagedLineStopsTheStartNamingFileAndLine() throws {
        let first = try ServerProcess()
        let c = try first.connect()
        try c.must("session.create", ["name": .string("m"), "clock": .string("manual")])
        try c.must("data.reload", ["session": .string("m"), "sections": Self.items(3)])
        try c.must("scroll.to", ["session": .string("m"), "offset": Self.pair(0, 10)])
        first.crash()
        let journal = first.directory + "/state/journal.ndjson"
        var lines = try String(contentsOfFile: journal, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 4)   // three lines and the empty string after the last line end
        lines[1] = "{\"seq\":2,\"method\":\"data.rel"
        try lines.joined(separator: "\n").write(toFile: journal, atomically: false, encoding: .utf8)

        do {
            _ = try ServerProcess(directory: first.scratch)
            Issue.record("trellisd started on a damaged journal")
        } catch {
            let message = String(describing: error)
            #expect(message.contains("\(journal):2"))
            #expect(message.contains("not a journal line"))
        }
    }

    // MARK: Compaction

    @Test func compactionKeepsTheStateExact() throws {
        let limit = 4096
        let arguments = ["--journal-compact-bytes", String(limit)]
        let first = try ServerProcess(arguments: arguments)
        let c = try first.connect()
        try c.must("session.create", ["name": .string("m"), "clock": .string("manual"), "layout": Self.flow(60, extra: [
            "sectionInset": .array([Self.n(5), Self.n(6), Self.n(7), Self.n(8)]), "headerSize": Self.pair(0, 20),
            "sections": .object(["0": .object(["minimumLineSpacing": Self.n(3)])]),
        ]), "contentInset": .array([Self.n(10), Self.n(0), Self.n(10), Self.n(0)])])
        try c.must("session.create", ["name": .string("l"), "layout": .object(["type": .string("circle")])])
        try c.must("data.reload", ["session": .string("m"), "sections": Self.items(200)])
        try c.must("data.reload", ["session": .string("l"), "sections": Self.items(10, prefix: "c")])
        for step in 0..<80 {
            try c.must("scroll.to", ["session": .string("m"), "offset": Self.pair(0, Double(step) * 37.5)])
            if step % 10 == 0 {
                try c.must("batch", ["session": .string("m"), "animated": .bool(false), "ops": .array([
                    .object(["op": .string("insertItems"), "at": .array([Self.pair(0, Double(step))]),
                             "items": .array([.object(["id": .string("n\(step)"), "size": Self.pair(60, 90), "reuseId": .string("tall")])])])])])
                try c.must("select", ["session": .string("l"), "at": Self.pair(0, Double(step / 10))])
            }
        }
        try c.must("select", ["session": .string("m"), "at": Self.pair(0, 12)])
        try c.must("clock.advance", ["session": .string("m"), "ms": Self.n(250)])
        try Self.settled(c)
        let state = first.directory + "/state"
        #expect(Self.fileSize(state + "/snapshot.json") > 0)
        #expect(Self.fileSize(state + "/journal.ndjson") < limit + 1024)
        #expect(first.stderrText.contains("compacted the journal"))
        let persistence = try c.result("stats")["persistence"]
        #expect((persistence?["compactions"]?.numberValue ?? 0) >= 1)
        #expect(persistence?["directory"] == .string(state))
        #expect(persistence?["behind"] == .bool(false))
        let scenes = [try Self.scene(c, "m"), try Self.scene(c, "l")]
        let list = try Self.sessionList(c)
        first.crash()

        // A snapshot gives fresh view ids; everything else is as it was.
        let second = try ServerProcess(arguments: arguments, directory: first.scratch)
        let d = try second.connect()
        #expect(Self.normalized(try Self.scene(d, "m"), keepTime: true) == Self.normalized(scenes[0], keepTime: true))
        #expect(Self.normalized(try Self.scene(d, "l")) == Self.normalized(scenes[1]))
        #expect(try Self.sessionList(d) == list)
        #expect(try d.result("session.info", ["session": .string("m")])["time"] == Self.n(250))

        // The snapshot plus the journal written after it.
        try d.must("deselect", ["session": .string("m"), "at": Self.pair(0, 12)])
        try d.must("view.resize", ["session": .string("m"), "bounds": Self.pair(320, 480)])
        try d.must("deselect", ["session": .string("m"), "all": .bool(true)])
        // An inset lets the offset rest above the content: only a restored inset keeps it there
        // through the resize that clamps it.
        try d.must("view.inset", ["session": .string("m"), "contentInset": .array([30, 0, 0, 0].map { .number($0) })])
        try d.must("scroll.to", ["session": .string("m"), "offset": Self.pair(0, -30)])
        try d.must("view.resize", ["session": .string("m"), "bounds": Self.pair(320, 470)])
        let later = try Self.scene(d, "m")
        #expect(later["contentOffset"] == Self.pair(0, -30))
        second.crash()
        let third = try ServerProcess(arguments: arguments, directory: first.scratch)
        #expect(Self.normalized(try Self.scene(try third.connect(), "m"), keepTime: true) == Self.normalized(later, keepTime: true))
        third.stop()
    }

    @Test func linesTheSnapshotHoldsAreNotReplayedTwice() throws {
        // A crash between the snapshot's rename and the journal's cut leaves both: put the
        // journal of before the compaction back beside the snapshot.
        let first = try ServerProcess(arguments: ["--journal-compact-bytes", "2000"])
        let c = try first.connect()
        try c.must("session.create", ["name": .string("m"), "clock": .string("manual"), "sections": Self.items(20)])
        let journal = first.directory + "/state/journal.ndjson"
        var saved = Data()
        var step = 0.0
        while Self.fileSize(first.directory + "/state/snapshot.json") < 0 {
            saved = try Data(contentsOf: URL(fileURLWithPath: journal))
            step += 1
            try c.must("scroll.to", ["session": .string("m"), "offset": Self.pair(0, step)])
            try Self.settled(c)
        }
        try c.must("batch", ["session": .string("m"), "animated": .bool(false), "ops": .array([
            .object(["op": .string("insertItems"), "at": .array([Self.pair(0, 0)]), "items": .array([.object(["id": .string("after")])])])])])
        let scene = try Self.scene(c, "m")
        first.crash()
        let after = try Data(contentsOf: URL(fileURLWithPath: journal))
        try (saved + after).write(to: URL(fileURLWithPath: journal))

        let second = try ServerProcess(directory: first.scratch)
        #expect(Self.normalized(try Self.scene(try second.connect(), "m"), keepTime: true) == Self.normalized(scene, keepTime: true))
        second.stop()
    }

    @Test func aSecondServerOnTheSameStateIsRefused() throws {
        let first = try ServerProcess()
        let state = first.directory + "/state"
        do {
            _ = try ServerProcess(arguments: ["--state-dir", state])
            Issue.record("two servers shared one state directory")
        } catch {
            #expect(String(describing: error).contains("another trellisd is using the state"))
        }
        first.stop()
    }

    // MARK: Units

    @Test func journalLinesReadBack() throws {
        let entries = [
            JournalEntry(seq: 1, method: "session.create", params: .object(["name": .string("a\nb")])),
            JournalEntry(seq: 2, method: "batch", params: .object(["session": .string("a"), "duration": .number(0.1)]),
                         session: "a", time: 1.0 / 3),
        ]
        var bytes: [UInt8] = []
        for e in entries { bytes += e.line.bytes }
        let whole = try JournalParser.parse(bytes, file: "j")
        #expect(whole.entries.map(\.entry) == entries && whole.entries.map(\.line) == [1, 2])
        #expect(whole.validLength == bytes.count && whole.tornTailBytes == 0)

        let torn = try JournalParser.parse(bytes + Array(#"{"seq":3,"met"#.utf8), file: "j")
        #expect(torn.entries.count == 2 && torn.validLength == bytes.count && torn.tornTailBytes == 13)

        let blank = try JournalParser.parse(Array("\n".utf8) + bytes, file: "j")
        #expect(blank.entries.map(\.line) == [2, 3])

        #expect(throws: PersistenceError.self) { try JournalParser.parse(Array("{\"seq\":1}\n".utf8) + bytes, file: "j") }
        do {
            _ = try JournalParser.parse(bytes + Array("garbage\n".utf8), file: "/x/journal.ndjson")
            Issue.record("a damaged whole last line was accepted")
        } catch {
            #expect(error.description.hasPrefix("/x/journal.ndjson:3: not a journal line"))
        }
    }

    @Test func defaultStateBelongsToTheSocketPath() {
        let a = StatePaths.key(forSocket: "/run/user/1000/trellis/default.sock")
        #expect(a.hasPrefix("default-") && a.count == "default-".count + 16)
        #expect(a == StatePaths.key(forSocket: "/run/user/1000/trellis/default.sock"))
        #expect(StatePaths.key(forSocket: "/a/s.sock") != StatePaths.key(forSocket: "/b/s.sock"))
        #expect(StatePaths.defaultDirectory(environment: ["XDG_STATE_HOME": "/st", "HOME": "/h"], socketPath: "/a/s.sock")
                == "/st/trellis/" + StatePaths.key(forSocket: "/a/s.sock"))
        #expect(StatePaths.defaultDirectory(environment: ["XDG_STATE_HOME": "rel", "HOME": "/h"], socketPath: "/a/s.sock")
                == "/h/.local/state/trellis/" + StatePaths.key(forSocket: "/a/s.sock"))
    }

    @Test func layoutsWriteBackToTheirProtocolObjects() throws {
        var metrics = FlowLayoutMetrics(itemSize: Size(40, 70), minimumLineSpacing: 3, minimumInteritemSpacing: 0.5,
                                        sectionInset: EdgeInsets(top: 1, left: 2, bottom: 3, right: 4),
                                        headerReferenceSize: Size(0, 22), footerReferenceSize: Size(10, 11),
                                        scrollDirection: .horizontal, sectionHeadersPinToVisibleBounds: true,
                                        sectionFootersPinToVisibleBounds: true, sectionBackgroundDecoration: true)
        metrics.sectionOverrides = [2: FlowSectionOverrides(inset: EdgeInsets(top: 9, left: 0, bottom: 0, right: 0), minimumLineSpacing: 7),
                                    0: FlowSectionOverrides(headerReferenceSize: Size(0, 5), footerReferenceSize: Size(0, 6))]
        let flow = try #require(LayoutEncoding.json(FlowLayout(metrics: metrics)))
        #expect((try LayoutSpec.layout(flow) as? FlowLayout)?.metrics == metrics)
        #expect((try LayoutSpec.layout(try #require(LayoutEncoding.json(FlowLayout()))) as? FlowLayout)?.metrics == FlowLayoutMetrics())

        let circle = try LayoutSpec.layout(try #require(LayoutEncoding.json(CircleLayout(itemSize: Size(30, 31), radius: 99) as any Layout))) as? CircleLayout
        #expect(circle?.itemSize == Size(30, 31) && circle?.radius == 99)
        let plain = try LayoutSpec.layout(try #require(LayoutEncoding.json(CircleLayout() as any Layout))) as? CircleLayout
        #expect(plain?.radius == nil && plain?.itemSize == CircleLayout().itemSize)
    }

    @Test func theLayoutLibraryWritesBackKeyForKey() throws {
        var carousel = CarouselLayout(style: .invertedCylinder, itemSize: Size(120, 90), vertical: true)
        carousel.wrap = false
        carousel.viewpointOffset = Point(-12, 30)
        carousel.fadeMax = 0.5
        carousel.customTransform = .flip3D
        let layouts: [any Layout] = [LineLayout(), CoverFlowLayout(itemSize: Size(90, 120), spacing: 0.4, angle: 1),
                                     StackLayout(itemSize: Size(80, 80), maxAngle: 0.2, visibleItems: 5, pileSpacing: 300), carousel]
        for layout in layouts {
            let json = try #require(LayoutEncoding.json(layout))
            let back = try LayoutSpec.layout(json)
            // Written again, the rebuilt layout gives the same object: every key survived.
            let again = try #require(LayoutEncoding.json(back))
            #expect(again == json, "\(layout.typeName)")
        }
        let carouselJSON = try #require(LayoutEncoding.json(carousel))
        let read = try #require(try LayoutSpec.layout(carouselJSON) as? CarouselLayout)
        #expect(read.wrap == false && read.showBackfaces == nil && read.viewpointOffset == Point(-12, 30) && read.fadeMax == 0.5)
    }

    @Test func aWrappingCarouselMidFlingSurvivesASnapshot() throws {
        var view = CollectionView(boundsSize: Size(320, 480), layout: CarouselLayout(style: .rotary), data: .generated(count: 12))
        try view.pan(.began, translation: .zero)
        try view.pan(.changed, translation: Point(-40, 0))
        try view.pan(.ended, translation: Point(-40, 0), velocity: Point(-3000, 0))
        view.advance(to: 0.25)
        let session = Session(name: "c", collectionView: view, clock: .manual, epochMilliseconds: 0)
        let read = try StateSnapshot(bytes: StateSnapshot(seq: 1, sessions: [try SessionState(session)]).bytes.bytes, file: "snapshot.json")
        var rebuilt = try read.sessions[0].makeView()
        #expect(rebuilt.scene == view.scene)
        for step in 1...400 {
            let t = 0.25 + Double(step) / 60
            view.advance(to: t)
            rebuilt.advance(to: t)
            #expect(rebuilt.presentationContentOffset == view.presentationContentOffset)
        }
        #expect(!rebuilt.needsTicks && rebuilt.layout.currentItem == view.layout.currentItem)
        #expect(rebuilt.scene == view.scene)
    }

    @Test func aStretchedSpringyListRestoresAndComesToRestOnItsFlowFrames() throws {
        var flow = FlowLayout()
        flow.itemSize = Size(100, 100)
        var view = CollectionView(boundsSize: Size(320, 480), layout: SpringyFlowLayout(flow: flow), data: .generated(count: 500))
        try view.pan(.began, translation: .zero, location: Point(160, 50))
        try view.pan(.changed, translation: Point(0, -40))
        try view.pan(.ended, translation: Point(0, -40), velocity: Point(0, -2000))
        view.advance(to: 0.2)
        #expect(!view.dynamicItems.isEmpty)
        // The springs are not kept (the fling and the finger are): the restored list is flow-placed
        // and stretches again as the fling goes on.
        let session = Session(name: "s", collectionView: view, clock: .manual, epochMilliseconds: 0)
        let read = try StateSnapshot(bytes: StateSnapshot(seq: 1, sessions: [try SessionState(session)]).bytes.bytes, file: "snapshot.json")
        var rebuilt = try read.sessions[0].makeView()
        #expect(rebuilt.scrollDeceleration == view.scrollDeceleration)
        var t = 0.2
        while (rebuilt.needsTicks || view.needsTicks) && t < 20 {
            t += 1.0 / 60
            view.advance(to: t)
            rebuilt.advance(to: t)
        }
        #expect(!rebuilt.needsTicks && rebuilt.dynamicItems.isEmpty)
        #expect(rebuilt.presentationContentOffset == view.presentationContentOffset)
        #expect(rebuilt.scene.views.map(\.attributes) == view.scene.views.map(\.attributes))
    }

    @Test func aFlingInFlightSurvivesASnapshotAndEndsWhereItWouldHave() throws {
        let data = try CollectionData(sections: [Section(id: "a", items: (0..<200).map { Item(id: ItemID("i\($0)")) })])
        var view = CollectionView(boundsSize: Size(300, 400), layout: FlowLayout(), data: data)
        view.configureScrolling(ScrollConfiguration(alwaysBounceHorizontal: true, decelerationRate: 0.995))
        view.advance(to: 1)
        try view.pan(.began, translation: .zero)
        try view.pan(.changed, translation: Point(0, -50))
        try view.pan(.ended, translation: Point(0, -50), velocity: Point(0, -2500))
        view.advance(to: 1.1)
        let session = Session(name: "s", collectionView: view, clock: .manual, epochMilliseconds: 0)
        let read = try StateSnapshot(bytes: StateSnapshot(seq: 1, sessions: [try SessionState(session)]).bytes.bytes, file: "snapshot.json")
        var rebuilt = try read.sessions[0].makeView()
        #expect(rebuilt.scrollDeceleration == view.scrollDeceleration)
        #expect(rebuilt.scrollConfiguration.decelerationRate == 0.995)
        #expect(rebuilt.needsTicks)
        for step in 1...300 {
            let t = 1.1 + Double(step) / 60
            view.advance(to: t)
            rebuilt.advance(to: t)
            #expect(rebuilt.presentationContentOffset == view.presentationContentOffset)
        }
        #expect(!rebuilt.needsTicks)

        // A drag in progress carries on from the same finger origin.
        try view.pan(.began, translation: .zero)
        try view.pan(.changed, translation: Point(0, 30))
        let dragging = Session(name: "d", collectionView: view, clock: .manual, epochMilliseconds: 0)
        let again = try StateSnapshot(bytes: StateSnapshot(seq: 2, sessions: [try SessionState(dragging)]).bytes.bytes, file: "snapshot.json")
        var resumed = try again.sessions[0].makeView()
        try view.pan(.changed, translation: Point(0, 80))
        try resumed.pan(.changed, translation: Point(0, 80))
        #expect(resumed.presentationContentOffset == view.presentationContentOffset)
    }

    @Test func snapshotOfASessionRebuildsTheSameScene() throws {
        let data = try CollectionData(sections: [
            Section(id: "a", items: [Item(id: "x", size: Size(10, 20), reuseIdentifier: "r", data: ItemPayload(.object(["k": .null]))),
                                     Item(id: "y", data: ItemPayload(.null))]),
            Section(id: "b", items: (0..<30).map { Item(id: ItemID("b\($0)")) }),
        ])
        var view = CollectionView(boundsSize: Size(300, 400), layout: FlowLayout(metrics: FlowLayoutMetrics(headerReferenceSize: Size(0, 15))),
                                  data: data, contentInset: EdgeInsets(top: 5, left: 0, bottom: 5, right: 0))
        view.selectionPolicy = SelectionPolicy(allowsSelection: true, allowsMultipleSelection: true)
        view.setContentOffset(Point(0, 123.25))
        try view.select(IndexPath(1, 3))
        try view.select(IndexPath(0, 0))
        view.advance(to: 2.5)
        let session = Session(name: "s", collectionView: view, clock: .manual, epochMilliseconds: 0)
        let bytes = StateSnapshot(seq: 7, sessions: [try SessionState(session)]).bytes.bytes
        let read = try StateSnapshot(bytes: bytes, file: "snapshot.json")
        #expect(read.seq == 7 && read.sessions.count == 1)
        let rebuilt = try read.sessions[0].makeView()
        #expect(rebuilt.data == view.data)
        #expect(rebuilt.selectedItems == ["b3", "x"])
        #expect(rebuilt.scene == view.scene)
        #expect(rebuilt.time == 2.5 && rebuilt.scroll == view.scroll)

        #expect(throws: PersistenceError.self) { try StateSnapshot(bytes: Array("{\"format\":\"x\"}".utf8), file: "f") }
    }
}

extension RPCConnection {
    /// `result` for calls made for their effect.
    @discardableResult
    func must(_ method: String, _ params: [String: JSONValue] = [:]) throws -> JSONValue { try result(method, params) }
}
