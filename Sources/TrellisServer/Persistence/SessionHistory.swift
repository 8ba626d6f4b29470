import TrellisCore
import TrellisProtocol

/// A recorded session's past, kept in memory beside its flight recording: keyframes (copies
/// of the session's engine, a value: its view ids and reuse pool included, so a moment rebuilt
/// from one is the very scene the viewers were sent, which a fork's state would not give) and
/// every accepted change since the recording began with the engine time it was made at. Any moment is rebuilt from the nearest
/// keyframe before it and the changes after that (`SessionSeek`), never touching the session.
///
/// Bounded: a keyframe every `keyframeSeconds` of session time or `keyframeChanges` changes,
/// at most `keyframeLimit` (1,024, fewer for large sessions; past that every other one is
/// dropped, so the whole range stays reachable with longer replays); at most `maximumChanges`
/// changes and `changeBytesLimit` bytes of them (`maximumChangeBytes`, each counted as its script
/// line, as the journal counts a line), after which the history stops growing and its range
/// ends at that moment; it stops too when its recording's file does. A keyframe shares what the
/// session has not changed since (its arrays are copy on write), so it costs what changed after it.
final class SessionHistory {
    /// One accepted change: its method, where its params' encoding is kept (`bytes`), and the
    /// engine time (seconds) after it (for clock.advance, the time it moved to).
    struct Change {
        let time: Double
        let method: String
        let encoded: RecordedChangeBytes.Span
    }

    /// The session's engine once `changes` changes of the history had been made, at `time`.
    struct Keyframe {
        let time: Double
        let changes: Int
        let engine: CollectionView
    }

    static let keyframeSeconds = 1.0
    static let keyframeChanges = 1024
    static let maximumKeyframes = 1024
    static let maximumChanges = 500_000
    /// The most bytes of changes one history keeps (32 MiB), each counted at its encoded size:
    /// without it a client sending large batches grew the server's memory without bound. The
    /// bytes are what is kept, so this bounds the changes' memory (with 56 bytes a change of index).
    static let maximumChangeBytes = 32 << 20
    /// What the keyframes of one session may cost, counted as 64 bytes per item each (a
    /// keyframe's item data is shared, but what a batch or a layout change rebuilds is not).
    static let keyframeBudgetBytes = 256 << 20

    /// The keyframes kept for a session of `items` items: `maximumKeyframes`, fewer when they
    /// would pass the budget (a million items: 16), never fewer than 16.
    static func keyframeLimit(items: Int) -> Int {
        max(16, min(maximumKeyframes, keyframeBudgetBytes / max(1, items * 64)))
    }
    /// The frame rate `atFrame` counts in: frame N is N sixtieths of a second after the start.
    static let framesPerSecond = 60.0
    /// Times within this of each other (seconds) are one moment: the wire carries milliseconds
    /// to the microsecond, so a seek to a change's time as a reply printed it lands after it.
    static let sameMoment = 0.5e-6

    /// A `recording.mark`: its label and the engine time (seconds) it was made at.
    struct Mark {
        let time: Double
        let label: String
    }
    /// The most marks a history keeps for a timeline (`recording.info`); later ones still go
    /// into the script as comments and checkpoints.
    static let maximumMarks = 4096

    /// The session's engine time when the recording began (seconds).
    let startTime: Double
    /// The marks made while the history grew, in time order (at most `maximumMarks`).
    private(set) var marks: [Mark] = []
    private(set) var changes: [Change] = []
    /// The changes' params, kept as they were encoded for the recording.
    private(set) var bytes = RecordedChangeBytes()
    private(set) var keyframes: [Keyframe]
    /// When (engine seconds) and why the history stopped growing; seeks reach up to then.
    private(set) var stopped: (time: Double, reason: String)?
    /// The encoded bytes of `changes` (what `changeBytesLimit` bounds).
    private(set) var changeBytes = 0
    /// The most `changeBytes` may reach (`maximumChangeBytes`; a test sets less).
    let changeBytesLimit: Int

    /// A history that starts from `session` as it is now.
    init(session: Session, changeBytesLimit: Int = SessionHistory.maximumChangeBytes) {
        self.changeBytesLimit = changeBytesLimit
        startTime = session.collectionView.time
        keyframes = [Keyframe(time: startTime, changes: 0, engine: session.collectionView)]
    }

    /// Appends one accepted change to `session` (the recorded one): its params as encoded in
    /// `encoded` from `start` on, in `form`; and a keyframe after it when one is due. Past a limit
    /// the history stops before it.
    func append(_ method: String, encoded: ByteBuffer, from start: Int, form: RecordedChangeBytes.Form, session: Session) {
        let time = session.collectionView.time
        guard admits(bytes: encoded.count - start, at: time) else { return }
        changeBytes += encoded.count - start
        changes.append(Change(time: time, method: method, encoded: bytes.append(encoded, from: start, form: form)))
        // Read in place: a copy of the last keyframe retained and released its whole engine.
        let last = keyframes.count - 1
        if changes.count - keyframes[last].changes >= Self.keyframeChanges || time - keyframes[last].time >= Self.keyframeSeconds {
            keyframe(session)
        }
    }

    /// Whether a change of `bytes` made at `time` fits the history's limits; if not, the history
    /// stops before it (so a caller can check before building the change's params).
    func admits(bytes: Int, at time: Double) -> Bool {
        guard stopped == nil else { return false }
        guard changes.count < Self.maximumChanges else {
            stop(before: time, "it holds its limit of \(Self.maximumChanges) changes")
            return false
        }
        guard changeBytes + bytes <= changeBytesLimit else {
            stop(before: time, "it holds its limit of \(changeBytesLimit) bytes of changes (a change of \(bytes) bytes came then)")
            return false
        }
        return true
    }

    /// The last whole frame (60 a second since the recording began) at or before `time` (engine
    /// seconds): a range's last frame, a mark's frame.
    func frame(at time: Double) -> Int {
        let milliseconds = (time - startTime) * 1000
        return Int((milliseconds / 1000 * Self.framesPerSecond + 1e-6).rounded(.down))
    }

    /// Notes a mark made at `time`, while the history still grows and has room for it.
    func mark(_ label: String, at time: Double) {
        guard stopped == nil, marks.count < Self.maximumMarks else { return }
        marks.append(Mark(time: time, label: label))
    }

    /// A keyframe of `session` between changes (a live session's ticks), when one is due by time.
    func tick(_ session: Session) {
        guard stopped == nil, session.collectionView.time - keyframes[keyframes.count - 1].time >= Self.keyframeSeconds else { return }
        keyframe(session)
    }

    private func keyframe(_ session: Session) {
        keyframes.append(Keyframe(time: session.collectionView.time, changes: changes.count, engine: session.collectionView))
        if keyframes.count > Self.keyframeLimit(items: session.collectionView.data.totalItemCount) {
            // Every other one goes (the first stays): the range stays whole, replays get longer.
            keyframes = keyframes.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        }
    }

    /// Ends the history just before a change at `time` it cannot take (two microseconds): the
    /// moment itself would show the session without the change its viewers saw then.
    private func stop(before time: Double, _ reason: String) {
        stop(at: max(startTime, time - 4 * Self.sameMoment), reason)
    }

    /// Ends the history at `time` (the session's end, its recording's end).
    func stop(at time: Double, _ reason: String) {
        if stopped == nil { stopped = (time, reason) }
    }

    /// The number of changes made at or before `time` (the changes a seek to it replays).
    func changeCount(through time: Double) -> Int {
        var low = 0, high = changes.count
        while low < high {
            let mid = (low + high) / 2
            if changes[mid].time <= time + Self.sameMoment { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The last keyframe taken after at most `count` changes and at or before `time` (both
    /// grow along the list; a tick's keyframe may come after the last change).
    func keyframe(before count: Int, at time: Double) -> Keyframe {
        var low = 0, high = keyframes.count
        while low < high {
            let mid = (low + high) / 2
            if keyframes[mid].changes <= count && keyframes[mid].time <= time + Self.sameMoment { low = mid + 1 } else { high = mid }
        }
        return keyframes[max(0, low - 1)]
    }
}
