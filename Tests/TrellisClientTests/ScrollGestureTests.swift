import Testing
import TrellisClient
import TrellisCore

private func numbers(_ values: [Double]) -> JSONValue { .array(values.map { .number($0) }) }

/// Swift Testing has an `Expectation` of its own.
private typealias ScriptExpectation = TrellisClient.Expectation

private func expectation(_ line: String) throws -> ScriptExpectation {
    try ExpectationSyntax.parse(try ScriptTokenizer.words(line))
}

private func refusal(_ body: () throws -> Any) -> String? {
    do { _ = try body(); return nil } catch let error as SyntaxError { return error.message } catch { return "\(error)" }
}

/// The client's side of scroll physics: the pan samples `drag` and `fling` send, the settings
/// of `scroll-config`, `expect NAME scroll …`, and the viewer's fling keys.
@Suite struct ScrollGestureTests {
    // MARK: Pan samples

    @Test func aDragMovesLinearlyOneSampleAFrameAndReleasesAtItsOwnVelocity() {
        let samples = PanGesture.drag(by: Point(30, -600), over: 300).samples
        // began, 18 frames of changed (300 ms at 60 Hz), ended.
        #expect(samples.count == 20)
        #expect(samples.map(\.phase) == ["began"] + Array(repeating: "changed", count: 18) + ["ended"])
        #expect(samples.first == PanGesture.Sample(delay: 0, phase: "began", translation: Point(0, 0)))
        for (k, s) in samples.dropFirst().dropLast().enumerated() {
            #expect(s.delay == 1000.0 / 60)
            #expect(abs(s.translation.y - -600 * Double(k + 1) / 18) < 1e-9 && abs(s.translation.x - 30 * Double(k + 1) / 18) < 1e-9)
            #expect(s.velocity == nil)
        }
        #expect(samples[9].translation == Point(15, -300))
        // Released where the last changed left it, at once, at by/over = (100, −2000) pt/s.
        let ended = samples.last!
        #expect(ended.delay == 0 && ended.translation == Point(30, -600))
        #expect(abs(ended.velocity!.x - 100) < 1e-9 && abs(ended.velocity!.y - -2000) < 1e-9)
        #expect(ended.params == ["phase": .string("ended"), "translation": numbers([30, -600]), "velocity": ended.velocity.map { numbers([$0.x, $0.y]) }!])
        #expect(samples[1].params == ["phase": .string("changed"), "translation": numbers([30 * (1.0 / 18), -600 * (1.0 / 18)])])
    }

    @Test func aDurationIsRoundedToWholeFramesAndTheVelocityFollowsTheRoundedOne() {
        // 110 ms is 6.6 frames: 7 frames, 116.7 ms, so the drag's own velocity is by·60/7.
        let seven = PanGesture.drag(by: Point(0, 700), over: 110).samples
        #expect(seven.filter { $0.phase == "changed" }.count == 7)
        #expect(abs(seven.last!.velocity!.y - 6000) < 1e-9)
        // Zero (or under half a frame) is still one frame of movement.
        #expect(PanGesture.drag(by: Point(0, 10), over: 0).samples.map(\.phase) == ["began", "changed", "ended"])
        // A given release velocity wins, 0,0 included (let go without inertia).
        #expect(PanGesture.drag(by: Point(0, 200), over: 300, releaseVelocity: Point(0, 0)).samples.last!.velocity == Point(0, 0))
        #expect(PanGesture.drag(by: Point(0, -600), over: 300, releaseVelocity: Point(0, -2500)).samples.last!.velocity == Point(0, -2500))
    }

    @Test func aFlingIsOneFrameOfItsVelocity() {
        #expect(PanGesture.fling(velocity: Point(-1200, -3000)).samples == [
            PanGesture.Sample(delay: 0, phase: "began", translation: Point(0, 0)),
            PanGesture.Sample(delay: 1000.0 / 60, phase: "changed", translation: Point(-20, -50)),
            PanGesture.Sample(delay: 0, phase: "ended", translation: Point(-20, -50), velocity: Point(-1200, -3000)),
        ])
    }

    @Test func onAManualClockTheSamplesAreSentWithClockAdvancesBetweenThem() throws {
        let server = StubCaller()
        server.results["gesture.pan"] = .object(["contentOffset": numbers([0, 600]), "dragging": .bool(false)])
        let reply = try PanGesture.drag(by: Point(0, -600), over: 50).send(to: server, session: "s")
        #expect(reply["contentOffset"] == numbers([0, 600]))
        #expect(server.calls.map(\.0) == ["gesture.pan", "clock.advance", "gesture.pan", "clock.advance", "gesture.pan",
                                         "clock.advance", "gesture.pan", "gesture.pan"])
        #expect(server.calls.allSatisfy { $0.1["session"] == .string("s") })
        let advanced = server.calls.filter { $0.0 == "clock.advance" }.compactMap { $0.1["ms"]?.numberValue }
        let frame: Double = 1000.0 / 60
        #expect(advanced == [frame, frame, frame])
        #expect(server.calls.last!.1["phase"] == .string("ended"))
        let velocity = server.calls.last!.1["velocity"]?.arrayValue?.compactMap(\.numberValue) ?? []
        #expect(velocity.count == 2 && velocity[0] == 0 && abs(velocity[1] - -12000) < 1e-9)
    }

    @Test func onALiveClockTheSamplesWaitForRealTimeSinceTheFirst() throws {
        let server = StubCaller()
        var waits: [Double] = []
        _ = try PanGesture.drag(by: Point(0, 90), over: 50).send(to: server, session: "s") { waits.append($0) }
        #expect(!server.calls.contains { $0.0 == "clock.advance" })
        #expect(server.calls.count == 5)
        #expect(waits.count == 3 && abs(waits[0] - 1000.0 / 60) < 1e-9 && abs(waits[2] - 50) < 1e-9)
    }

    @Test func aRefusedSampleStopsTheGesture() {
        let server = StubCaller()
        server.errors["gesture.pan"] = .server(code: -32000, message: "scrolling is disabled", domainCode: "invalid_state", data: nil)
        #expect(throws: ClientError.self) { try PanGesture.fling(velocity: Point(0, -3000)).send(to: server, session: "s") }
        #expect(server.calls.map(\.0) == ["gesture.pan"])
    }

    // MARK: Settings

    @Test func scrollSettingsAreUIScrollViewsKeys() throws {
        let settings = ScrollSettings(options: [("bounces", "false"), ("always-bounce-vertical", "true"), ("always-bounce-horizontal", "false"),
                                                ("paging", "true"), ("scroll-enabled", "true"), ("deceleration", "fast")])
        #expect(try settings.params() == [
            "bounces": .bool(false), "alwaysBounceVertical": .bool(true), "alwaysBounceHorizontal": .bool(false),
            "pagingEnabled": .bool(true), "scrollEnabled": .bool(true), "decelerationRate": .string("fast")])
        #expect(try ScrollSettings(options: [("deceleration", "0.995")]).params() == ["decelerationRate": .number(0.995)])
        #expect(try ScrollSettings().params() == [:])
        #expect(refusal { try ScrollSettings(options: [("paging", "yes")]).params() } == "--paging 'yes': expected true or false")
        #expect(refusal { try ScrollSettings(options: [("deceleration", "slow")]).params() }?.hasPrefix("--deceleration 'slow': expected normal, fast") == true)
    }

    // MARK: Expectations

    @Test func scrollExpectationsParse() throws {
        #expect(try expectation("s scroll dragging==false decelerating=false bouncing!=true offset=0,1200 velocity=0,-3.5 speed<1 tolerance=0.5") == .scroll(
            session: "s",
            checks: [.flag("dragging", .equal, false), .flag("decelerating", .equal, false), .flag("bouncing", .notEqual, true),
                     .offset(Point(0, 1200)), .velocity(Point(0, -3.5)), .speed(.less, 1)],
            tolerance: 0.5))
        #expect(try expectation("s scroll tracking==true") == .scroll(session: "s", checks: [.flag("tracking", .equal, true)],
                                                                       tolerance: ScriptExpectation.defaultTolerance))
        #expect(refusal { try expectation("s scroll") }?.hasPrefix("expect … scroll: nothing to check") == true)
        #expect(refusal { try expectation("s scroll dragging<1") } == "'dragging<1': expected dragging==true|false (or !=)")
        #expect(refusal { try expectation("s scroll offset>0,0") } == "'offset>0,0': offset is compared with = only")
        #expect(refusal { try expectation("s scroll paging=true") }?.hasPrefix("'paging': unknown scroll state") == true)
    }

    @Test func scrollExpectationsReadSessionInfosScroll() {
        let server = StubCaller()
        server.results["session.info"] = .object(["name": .string("s"), "scroll": .object([
            "contentOffset": numbers([0, 1199.8]), "velocity": numbers([0, -0.3]), "dragging": .bool(false),
            "decelerating": .bool(true), "bouncing": .bool(false), "tracking": .bool(false)])])
        let check = ExpectationCheck(caller: server, scriptPath: "")
        var r = check.evaluate(try! expectation("s scroll dragging==false bouncing==false offset=0,1200 speed<1 tolerance=0.5"))
        #expect(r.passed)
        #expect(server.calls.map(\.0) == ["session.info"])
        r = check.evaluate(try! expectation("s scroll decelerating==false offset=0,1200"))
        #expect(!r.passed)
        #expect(r.expected == "decelerating==false offset=0,1200")
        #expect(r.actual == "decelerating=true offset=0,1199.8")
        server.results["session.info"] = .object(["name": .string("s")])
        r = check.evaluate(try! expectation("s scroll dragging==false"))
        #expect(!r.passed && r.actual == "no scroll state in session.info")
    }

    // MARK: Viewer keys

    @Test func shiftArrowsAreFlingKeys() {
        let esc: UInt8 = 0x1b
        func keys(_ text: String) -> [TerminalKey] { TerminalKey.decode([esc] + Array(text.utf8)) }
        // xterm: CSI 1;2 A…D; rxvt: CSI a…d. Plain and ctrl (1;5) arrows stay arrows.
        #expect(keys("[1;2A") == [.shiftUp])
        #expect(keys("[1;2B") == [.shiftDown])
        #expect(keys("[1;2C") == [.shiftRight])
        #expect(keys("[1;2D") == [.shiftLeft])
        #expect(keys("[b") == [.shiftDown])
        #expect(keys("[B") == [.down])
        #expect(keys("OB") == [.down])
        #expect(keys("[1;5B") == [.down])
        #expect(TerminalKey.decode([esc] + Array("[1;2B".utf8) + [esc] + Array("[1;2B".utf8) + Array("q".utf8)) == [.shiftDown, .shiftDown, .character("q")])
    }

    @Test func aFlingKeyFlicksTheFingerAgainstWhereTheViewGoes() {
        // shift+down shows content further down: the finger goes up (−y), the offset grows.
        #expect(TerminalViewer.flingVelocity(for: .shiftDown) == Point(0, -3000))
        #expect(TerminalViewer.flingVelocity(for: .shiftUp) == Point(0, 3000))
        #expect(TerminalViewer.flingVelocity(for: .shiftRight) == Point(-3000, 0))
        #expect(TerminalViewer.flingVelocity(for: .shiftLeft) == Point(3000, 0))
        #expect(TerminalViewer.flingVelocity(for: .down) == nil)
        #expect(TerminalViewer.flingVelocity(for: .character("j")) == nil)
    }
}
