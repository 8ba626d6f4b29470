import Foundation
import Testing
import TrellisClient
import TrellisCore
import TrellisProtocol

private func numbers(_ values: [Double]) -> JSONValue { .array(values.map { .number($0) }) }

/// Swift Testing has an `Expectation` of its own.
private typealias ScriptExpectation = TrellisClient.Expectation

private func expectation(_ line: String) throws -> ScriptExpectation {
    try ExpectationSyntax.parse(try ScriptTokenizer.words(line))
}

private func refusal(_ body: () throws -> Any) -> String? {
    do { _ = try body(); return nil } catch let error as SyntaxError { return error.message } catch { return "\(error)" }
}

private func rangeRefusal(_ body: () throws -> Void) -> String? {
    do { try body(); return nil } catch { return (error as? RangeError)?.message ?? "\(error)" }
}

/// How `PanSender.send` failed, or nil when it did not.
private func panEnding(_ body: () throws -> JSONValue) -> PanSender.Failure? {
    do { _ = try body(); return nil } catch { return error as? PanSender.Failure }
}

/// A server whose every answer `reply` makes (or the ClientError it throws), from the method,
/// its params and how many gesture.pan calls there were so far, this one included.
private final class ScriptedCaller: MethodCaller {
    let reply: (String, [String: JSONValue], Int) throws -> JSONValue
    var calls: [(String, [String: JSONValue])] = []
    init(_ reply: @escaping (String, [String: JSONValue], Int) throws -> JSONValue) { self.reply = reply }

    func call(_ method: String, _ params: [String: JSONValue]) throws(ClientError) -> JSONValue {
        calls.append((method, params))
        do { return try reply(method, params, calls.filter { $0.0 == "gesture.pan" }.count) } catch let error as ClientError {
            throw error
        } catch {
            throw .badReply("\(error)")
        }
    }
}

private final class Counter { var count = 0 }

/// The client's side of scroll physics: the pan samples `drag` and `fling` send, the settings
/// of `scroll-config`, `expect NAME scroll …`, and the viewer's fling keys.
@Suite struct ScrollGestureTests {
    // MARK: Pan samples

    @Test func aDragMovesLinearlyOneSampleAFrameAndReleasesAtItsOwnVelocity() {
        let samples = Array(PanGesture.drag(by: Point(30, -600), over: 300))
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
        let seven = Array(PanGesture.drag(by: Point(0, 700), over: 110))
        #expect(seven.filter { $0.phase == "changed" }.count == 7)
        #expect(abs(seven.last!.velocity!.y - 6000) < 1e-9)
        // Zero (or under half a frame) is still one frame of movement.
        #expect(PanGesture.drag(by: Point(0, 10), over: 0).map(\.phase) == ["began", "changed", "ended"])
        // A given release velocity wins, 0,0 included (let go without inertia).
        #expect(Array(PanGesture.drag(by: Point(0, 200), over: 300, releaseVelocity: Point(0, 0))).last!.velocity == Point(0, 0))
        #expect(Array(PanGesture.drag(by: Point(0, -600), over: 300, releaseVelocity: Point(0, -2500))).last!.velocity == Point(0, -2500))
    }

    @Test func aFlingIsOneFrameOfItsVelocity() {
        #expect(Array(PanGesture.fling(velocity: Point(-1200, -3000))) == [
            PanGesture.Sample(delay: 0, phase: "began", translation: Point(0, 0)),
            PanGesture.Sample(delay: 1000.0 / 60, phase: "changed", translation: Point(-20, -50)),
            PanGesture.Sample(delay: 0, phase: "ended", translation: Point(-20, -50), velocity: Point(-1200, -3000)),
        ])
    }

    @Test func onAManualClockTheSamplesAreSentWithClockAdvancesBetweenThem() throws {
        let server = StubCaller()
        server.results["gesture.pan"] = .object(["contentOffset": numbers([0, 600]), "dragging": .bool(false)])
        let reply = try PanSender(caller: server, session: "s").send(PanGesture.drag(by: Point(0, -600), over: 50))
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
        _ = try PanSender(caller: server, session: "s", wait: { waits.append($0) }).send(PanGesture.drag(by: Point(0, 90), over: 50))
        #expect(!server.calls.contains { $0.0 == "clock.advance" })
        #expect(server.calls.count == 5)
        #expect(waits.count == 3 && abs(waits[0] - 1000.0 / 60) < 1e-9 && abs(waits[2] - 50) < 1e-9)
    }

    @Test func aRefusedBeganStopsTheGestureWithNothingToCancel() {
        let server = StubCaller()
        server.errors["gesture.pan"] = .server(code: -32000, message: "scrolling is disabled", domainCode: "invalid_state", data: nil)
        let ending = panEnding { try PanSender(caller: server, session: "s").send(PanGesture.fling(velocity: Point(0, -3000))) }
        guard case .failed(.server(_, "scrolling is disabled", _, _), .notBegun)? = ending else {
            Issue.record("\(String(describing: ending))")
            return
        }
        #expect(server.calls.map(\.0) == ["gesture.pan"])
    }

    @Test func aLaterRefusalCancelsThePanWhereTheServerLastHadIt() {
        // The third sample (the second changed) is refused: the pan is cancelled at the first
        // changed's translation, the last one the server accepted, and nothing else is sent.
        let server = ScriptedCaller { method, params, pans in
            if method == "gesture.pan", pans == 3 { throw ClientError.server(code: -32602, message: "params.translation: no", domainCode: nil, data: nil) }
            return .object([:])
        }
        let drag = PanGesture.drag(by: Point(0, -600), over: 100)
        let ending = panEnding { try PanSender(caller: server, session: "s").send(drag) }
        guard case .failed(.server(-32602, _, _, _), .cancelled)? = ending else {
            Issue.record("\(String(describing: ending))")
            return
        }
        let pans = server.calls.filter { $0.0 == "gesture.pan" }.map(\.1)
        #expect(pans.map { $0["phase"] } == ["began", "changed", "changed", "cancelled"].map { .string($0) })
        #expect(pans.last! == ["session": .string("s"), "phase": .string("cancelled"), "translation": numbers([0, -100])])
        #expect(server.calls.last!.0 == "gesture.pan")
    }

    @Test func aBrokenConnectionCancelsOnANewOneWhenThereIsOne() {
        let lost = ClientError.disconnected(path: "/s", reason: "Broken pipe")
        func sender(_ first: ScriptedCaller, reconnect: @escaping () -> (any MethodCaller)?) -> PanSender {
            var sender = PanSender(caller: first, session: "s")
            sender.reconnect = reconnect
            return sender
        }
        // The old connection refuses everything from the fourth pan on, the cancel included.
        let broken = { ScriptedCaller { method, _, pans in if method == "gesture.pan", pans >= 4 { throw lost }; return .object([:]) } }
        let first = broken(), fresh = ScriptedCaller { _, _, _ in .object([:]) }
        var ending = panEnding { try sender(first, reconnect: { fresh }).send(PanGesture.drag(by: Point(0, 300), over: 100)) }
        guard case .failed(.disconnected, .cancelledAfterReconnecting)? = ending else {
            Issue.record("\(String(describing: ending))")
            return
        }
        #expect(fresh.calls.map(\.0) == ["gesture.pan"])
        #expect(fresh.calls[0].1["phase"] == .string("cancelled") && fresh.calls[0].1["translation"] == numbers([0, 100]))
        // No server to be had: said so, for the caller to report the session may be left dragging.
        ending = panEnding { try sender(broken(), reconnect: { nil }).send(PanGesture.drag(by: Point(0, 300), over: 100)) }
        guard case .failed(.disconnected, .notCancelled(.disconnected))? = ending else {
            Issue.record("\(String(describing: ending))")
            return
        }
        // A server that stops (shutting_down) is reconnected to as well: a restart restores the
        // session mid-pan.
        let stopping = ScriptedCaller { method, _, pans in
            if method == "gesture.pan", pans >= 2 { throw ClientError.server(code: -32009, message: "stopping", domainCode: "shutting_down", data: nil) }
            return .object([:])
        }
        let restarted = ScriptedCaller { _, _, _ in .object([:]) }
        ending = panEnding { try sender(stopping, reconnect: { restarted }).send(PanGesture.fling(velocity: Point(0, 300))) }
        guard case .failed(.server(_, _, "shutting_down", _), .cancelledAfterReconnecting)? = ending else {
            Issue.record("\(String(describing: ending))")
            return
        }
    }

    @Test func aCancelRefusedForWantOfAPanMeansTheServerEndedItAlready() {
        // Scrolling turned off or an interactive transition begun mid-drag: the server ended
        // the pan itself, then refuses both the next sample and the cancel as invalid_state.
        let server = ScriptedCaller { method, _, pans in
            if method == "gesture.pan", pans >= 2 { throw ClientError.server(code: -32008, message: "no pan", domainCode: "invalid_state", data: nil) }
            return .object([:])
        }
        let ending = panEnding { try PanSender(caller: server, session: "s").send(PanGesture.fling(velocity: Point(0, 300))) }
        guard case .failed(_, .alreadyOver)? = ending else {
            Issue.record("\(String(describing: ending))")
            return
        }
        #expect(server.calls.filter { $0.0 == "gesture.pan" }.count == 3)
    }

    @Test func aSignalStopsTheSamplesAndCancelsWhatBegan() {
        let server = StubCaller()
        var asked = 0
        var sender = PanSender(caller: server, session: "s")
        // SIGINT arrives after the second sample went out.
        sender.interruption = { asked += 1; return asked > 2 ? SIGINT : nil }
        var ending = panEnding { try sender.send(PanGesture.drag(by: Point(0, -60), over: 100)) }
        guard case .interrupted(SIGINT, .cancelled)? = ending else {
            Issue.record("\(String(describing: ending))")
            return
        }
        let pans = server.calls.filter { $0.0 == "gesture.pan" }.map(\.1)
        #expect(pans.map { $0["phase"] } == ["began", "changed", "cancelled"].map { .string($0) })
        #expect(pans.last!["translation"] == numbers([0, -10]))
        // Before the began: nothing is sent, nothing to cancel.
        let idle = StubCaller()
        sender = PanSender(caller: idle, session: "s")
        sender.interruption = { SIGTERM }
        ending = panEnding { try sender.send(PanGesture.drag(by: Point(0, -60), over: 100)) }
        guard case .interrupted(SIGTERM, .notBegun)? = ending else {
            Issue.record("\(String(describing: ending))")
            return
        }
        #expect(idle.calls.isEmpty)
    }

    @Test func theSamplesAreMadeOneAtATimeAsTheyAreSent() throws {
        // Each sample is taken from the gesture when its turn comes: the one the server gets
        // is the last one made, never a list built up front.
        let made = Counter()
        var caller: ScriptedCaller!
        caller = ScriptedCaller { method, _, _ in
            if method == "gesture.pan" { #expect(made.count == caller.calls.filter { $0.0 == "gesture.pan" }.count) }
            return .object([:])
        }
        let drag = PanGesture.drag(by: Point(0, -600), over: 1000)
        _ = try PanSender(caller: caller, session: "s").send(drag.lazy.map { sample in made.count += 1; return sample })
        #expect(made.count == 62)
    }

    @Test func aTenMinuteDragIsThirtySixThousandFramesOfAFixedSizeGenerator() {
        // The longest drag --over takes: its samples come from a few numbers, however many.
        let drag = PanGesture.drag(by: Point(0, -600), over: GestureRanges.longestDrag)
        #expect(drag.frames == 36_000 && drag.underestimatedCount == 36_002)
        var count = 0
        var last: PanGesture.Sample?
        for sample in drag {
            count += 1
            if count == 18_001 { #expect(sample.translation == Point(0, -300)) }
            last = sample
        }
        #expect(count == 36_002)
        #expect(last == PanGesture.Sample(delay: 0, phase: "ended", translation: Point(0, -600), velocity: Point(0, -1)))
        // A duration no drag could take saturates instead of trapping (the CLI refuses it first).
        #expect(PanGesture.frames(in: 1e300) == Int(1e15) && PanGesture.frames(in: .nan) == 1)
    }

    // MARK: Ranges

    @Test func gestureRangesAreTheProtocolsAndNameTheOptionTheRangeAndTheValue() {
        #expect(GestureRanges.translation == -1e6...1e6 && GestureRanges.velocity == -1e6...1e6 && GestureRanges.point == -1e9...1e9)
        #expect(throws: Never.self) { try GestureRanges.check(Point(1e6, -1e6), in: GestureRanges.translation, option: "--by", text: "", unit: "pt") }
        #expect(rangeRefusal { try GestureRanges.check(Point(1e7, 0), in: GestureRanges.velocity, option: "--velocity", text: "1e7,0",
                                                        names: "DX and DY", unit: "pt/s") }
                == "--velocity '1e7,0': DX and DY must each be from -1000000 to 1000000 pt/s, found 10000000,0")
        #expect(rangeRefusal { try GestureRanges.checkDuration(600_000, option: "--over", text: "600s") } == nil)
        #expect(rangeRefusal { try GestureRanges.checkDuration(600_001, option: "--over", text: "600001ms") }
                == "--over '600001ms': a drag takes at most 600000ms (10 minutes), found 600001ms")
        // A drag's own release velocity: 1,000,000 pt in one frame is 60,000,000 pt/s.
        #expect(rangeRefusal { try GestureRanges.checkOwnVelocity(of: PanGesture.drag(by: Point(0, 1e6), over: 0)) }?
                    .hasPrefix("--by over --over releases the finger at 0,60000000 pt/s") == true)
        #expect(rangeRefusal { try GestureRanges.checkOwnVelocity(of: PanGesture.drag(by: Point(0, 1e6), over: 1000)) } == nil)
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
