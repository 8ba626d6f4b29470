#if canImport(Glibc)
import Glibc
#endif
import TrellisCore
import TrellisProtocol
import TrellisTransport

/// What a past-moment viewer (`attach --at`) holds: the recording's range and marks, the
/// moment drawn and its scene, the seek under way and the one to ask for after it, and playback.
struct PastView {
    var timeline: PastTimeline?
    var infoInFlight = false
    /// What waits for the recording.info under way.
    var afterInfo: [() -> Void] = []
    /// recording.info is not answered by this server: the range is learnt from seeks alone.
    var infoUnavailable = false
    var shown: PastMoment?
    /// The ms the server answered for `shown`.
    var shownAt = 0.0
    var scene: Scene?
    /// session.seek's reply for `shown` (what --json prints).
    var reply: JSONValue = .null
    /// The last moment asked for: keys move on from it, not from a stale `shown`.
    var requested: PastMoment
    /// Asked for while a seek was under way; sent when it answers (those between are dropped).
    var waiting: PastMoment?
    var seekInFlight = false
    /// Playing: when it started (monotonic seconds) and from which frame.
    var playing: (since: Double, from: Double)?
    var playTimer: LoopTimer?

    init(_ moment: PastMoment) { requested = moment }
}

/// A past moment of a recorded session drawn with the live view's renderer, moved through as a
/// timeline: each moment shown is one `session.seek`; nothing of the session changes.
extension TerminalViewer {
    /// Reads the recording's range and marks, then draws the first moment; the terminal is
    /// taken only once it is drawn, so a refusal (not recorded, out of range) stays readable.
    func startPast() {
        readRecordingInfo { [unowned self] in
            guard let moment = self.past?.requested else { return }
            self.seekPast(moment)
        }
    }

    /// Asks recording.info again (the range of a live recording grows); `then` runs after.
    func readRecordingInfo(then: @escaping () -> Void = {}) {
        guard var state = past else { return }
        guard !state.infoUnavailable else { return then() }
        state.afterInfo.append(then)
        // One request at a time: those who ask meanwhile hear its answer.
        guard !state.infoInFlight else {
            past = state
            return
        }
        state.infoInFlight = true
        past = state
        connection.call("recording.info", ["session": .string(configuration.session)]) { [unowned self] result in
            self.past?.infoInFlight = false
            switch result {
            case .success(let info):
                do throws(ParamError) {
                    self.past?.timeline = try PastTimeline(info: info)
                } catch {
                    return self.finish(.failed(.badReply(error.message)))
                }
            case .failure(.server(let code, _, _, _)) where code == -32601:
                // An older server: moments are still drawn, without the range and marks.
                self.past?.infoUnavailable = true
            case .failure(let error):
                // Before anything is drawn this is the answer (not recorded, no such session).
                guard self.past?.scene != nil else { return self.finish(.failed(error)) }
                self.setNote("recording.info: \(Self.describe(error))")
            }
            let waiting = self.past?.afterInfo ?? []
            self.past?.afterInfo = []
            for action in waiting { action() }
            self.render(countsAsFrame: false)
        }
    }

    /// Shows `moment`: asked for at once, or after the seek under way (which then drops the
    /// moments asked for in between but the last).
    func seekPast(_ moment: PastMoment) {
        guard past != nil else { return }
        past!.requested = moment
        if past!.seekInFlight {
            past!.waiting = moment
            return
        }
        past!.waiting = nil
        past!.seekInFlight = true
        var params = moment.params
        params["session"] = .string(configuration.session)
        connection.call("session.seek", params) { [unowned self] result in
            guard self.past != nil else { return }
            self.past!.seekInFlight = false
            switch result {
            case .success(let reply):
                guard let sceneValue = reply["scene"], let scene = try? WireScene.scene(sceneValue),
                      case .number(let at)? = reply["at"], at.isFinite else {
                    return self.finish(.failed(.badReply("session.seek: \(JSONWriter.string(reply).prefix(200))")))
                }
                let first = self.past!.scene == nil
                self.past!.scene = scene
                self.past!.shown = moment
                self.past!.shownAt = at
                self.past!.reply = reply
                if first {
                    self.ready = true
                    self.takeTerminal()
                }
                self.render(countsAsFrame: true)
            case .failure(let error):
                guard self.past!.scene != nil else { return self.finish(.failed(error)) }
                // Out of range or refused: the moment shown stays, and so does where keys go on from.
                self.past!.requested = self.past!.shown ?? moment
                self.stopPlaying()
                self.setNote(Self.describe(error))
            }
            if let next = self.past!.waiting, next != self.past!.shown { self.seekPast(next) }
        }
    }

    static func describe(_ error: ClientError) -> String {
        if case .server(_, let message, _, _) = error { return message }
        return "\(error)"
    }

    func handlePastKey(_ key: TerminalKey) {
        guard let state = past else { return }
        // A note speaks of the last key only (an edge reached, a refusal).
        status.note = ""
        let position = state.requested.position
        let base = state.requested
        switch key {
        case .right, .character("l"): stopPlaying(); stepPast(to: base.frameAtOrBefore + 1)
        case .left, .character("h"): stopPlaying(); stepPast(to: base.frameAtOrAfter - 1)
        case .shiftRight, .character("]"):
            stopPlaying(); stepPast(to: base.frameAtOrBefore + Int(PastMoment.framesPerSecond))
        case .shiftLeft, .character("["):
            stopPlaying(); stepPast(to: base.frameAtOrAfter - Int(PastMoment.framesPerSecond))
        case .home, .character("g"): stopPlaying(); seekPast(.frame(0))
        case .end, .character("G"):
            stopPlaying()
            // A live recording has grown since it was last read.
            readRecordingInfo { [unowned self] in
                guard let last = self.past?.timeline?.lastFrame else { return self.setNote("the range is unknown: this server has no recording.info") }
                self.seekPast(.frame(last))
            }
        case .character(" "): past?.playing == nil ? startPlaying() : stopPlaying()
        case .character("n"):
            guard let mark = state.timeline?.mark(after: position) else { return setNote("no mark after this moment") }
            stopPlaying(); seekPast(.at(milliseconds: mark.at))
        case .character("p"):
            guard let mark = state.timeline?.mark(before: position) else { return setNote("no mark before this moment") }
            stopPlaying(); seekPast(.at(milliseconds: mark.at))
        case .character("d"), .character("D"): setNote("no debug layer in a past moment")
        case .up, .down, .pageUp, .pageDown, .character("j"), .character("k"):
            setNote("read-only: a past moment cannot scroll")
        default: break
        }
    }

    /// Frame `frame`, kept inside the known range (the server refuses beyond, with the range).
    func stepPast(to frame: Int) {
        guard let state = past else { return }
        let target = state.timeline?.clamped(frame) ?? max(0, frame)
        guard Double(target) != state.requested.position else {
            return setNote(target == 0 ? "the start of the recording" : "the end of the recording (End reads it again)")
        }
        seekPast(.frame(target))
    }

    /// Playback at 60 frames a second on the viewer's own timer, from the moment asked for (from
    /// the start when that is the end, read again first); each tick asks for the frame the clock
    /// has reached, and skips while a seek is under way, so a slow seek drops frames instead of
    /// slowing time.
    func startPlaying() {
        readRecordingInfo { [unowned self] in
            guard var state = self.past, state.playing == nil else { return }
            var from = state.requested.position
            if let last = state.timeline?.lastFrame, from >= Double(last) { from = 0 }
            state.playing = (Self.now(), from)
            if state.playTimer == nil {
                let timer = LoopTimer(loop: self.loop)
                timer.onFire = { [unowned self] in
                    guard self.exitReason == nil else { return }
                    self.playTick()
                }
                state.playTimer = timer
                self.runningTimers.append(timer)
            }
            state.playTimer?.start(after: 1, repeatingEvery: 16)
            self.past = state
            self.status.note = ""
            if from == 0, state.requested.position != 0 { self.seekPast(.frame(0)) }
            self.render(countsAsFrame: false)
        }
    }

    func stopPlaying() {
        guard past?.playing != nil else { return }
        past?.playing = nil
        past?.playTimer?.stop()
        render(countsAsFrame: false)
    }

    func playTick() {
        guard let state = past, let playing = state.playing else { return }
        let frame = Int((playing.from + (Self.now() - playing.since) * PastMoment.framesPerSecond + 1e-6).rounded(.down))
        if let timeline = state.timeline, frame > timeline.lastFrame {
            // Past the known end: a live recording may have grown since it was read; ask, and
            // stop at the end when it has not (or its history has ended).
            guard timeline.growing, !state.infoInFlight else {
                if !timeline.growing { reachedTheEnd(timeline.lastFrame) }
                return
            }
            readRecordingInfo { [unowned self] in
                guard let grown = self.past?.timeline?.lastFrame, grown > timeline.lastFrame else { return self.reachedTheEnd(timeline.lastFrame) }
            }
            return
        }
        // Drop frames while a seek is under way: the next tick asks for where the clock is then.
        guard !state.seekInFlight, state.requested != .frame(frame) else { return }
        seekPast(.frame(frame))
    }

    /// Playback ran into the recording's end: the last frame shown, paused there.
    private func reachedTheEnd(_ lastFrame: Int) {
        guard past?.playing != nil else { return }
        if past?.requested != .frame(lastFrame) { seekPast(.frame(lastFrame)) }
        stopPlaying()
        setNote("the end of the recording")
    }

    /// The status line's reading of the moment drawn.
    func pastStatus() -> ViewerStatus.Past? {
        guard let state = past, let shown = state.shown else { return nil }
        var line = ViewerStatus.Past(moment: shown, at: state.shownAt)
        line.lastFrame = state.timeline?.lastFrame
        line.playing = state.playing != nil
        line.nextMark = state.timeline?.mark(after: shown.position)?.label
        return line
    }
}
