import TrellisCore
import TrellisProtocol

/// The lines a flight recording writes, as `trellis run` reads them: a change as the readable
/// command where one says exactly the same (`advance`, `scroll --to`, `kill`), else as a raw `rpc` line with
/// the request's params as they came; the ticks between changes as `advance`; and checkpoints,
/// `expect` lines that pin the scene in numbers a person can read.
enum RecordedScriptLines {
    /// Tolerance of a checkpoint's positions (points) and time (ms): the numbers are written to
    /// two decimals, so anything closer than this is the same scene to a reader.
    static let tolerance = "0.5"
    /// A word as the script tokenizer reads it back: bare when it holds only safe characters,
    /// else in single quotes (a quote inside becomes `'\''`, as in sh).
    static func word(_ text: String) -> String {
        let safe = !text.isEmpty && text.utf8.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || b == 0x2d || b == 0x5f || b == 0x2e || b == 0x3a
        } && !text.hasPrefix("-")
        if safe { return text }
        return "'" + text.replacingQuotes + "'"
    }

    /// `rpc METHOD '{params}'`, the params written as JSON (numbers in shortest round-trip form,
    /// so the replay sends the very same doubles).
    static func rpc(_ method: String, params: JSONValue, into b: inout ByteBuffer) {
        var json = ByteBuffer(capacity: 256)
        JSONWriter.write(params, into: &json)
        rpc(method, json: json, into: &b)
    }

    /// The same with the params already written as JSON (a chunked upload's committed data).
    static func rpc(_ method: String, json: ByteBuffer, into b: inout ByteBuffer) {
        b.append("rpc ")
        b.append(utf8: method)
        b.append(" '")
        quoted(json, into: &b)
        b.append("'\n")
    }

    /// `json` inside single quotes: each `'` closes them, is escaped, and opens them again.
    private static func quoted(_ json: ByteBuffer, into b: inout ByteBuffer) {
        if json.holdsNonFiniteNumber { b.noteNonFiniteNumber() }
        json.withUnsafeBytes { raw in
            for byte in raw {
                if byte == UInt8(ascii: "'") { b.append("'\\''") } else { b.append(byte) }
            }
        }
    }

    /// The line for one accepted change to `session`; `sessionWord`: `word(session)`, when the
    /// caller keeps it (a recording does: making it per change showed in a request's profile).
    static func change(_ method: String, params: JSONValue, session: String, sessionWord: String? = nil, into b: inout ByteBuffer) {
        // A name that starts with '-' would read as an option on a command line: raw lines only.
        if session.hasPrefix("-") { return rpc(method, params: params, into: &b) }
        switch method {
        case "clock.advance" where members(params) == 2:
            guard let ms = params.field("ms")?.numberValue else { return rpc(method, params: params, into: &b) }
            advance(session, sessionWord: sessionWord, milliseconds: ms, into: &b)
        case "session.destroy" where members(params) == 1:
            b.append(utf8: "kill \(sessionWord ?? word(session))\n")
        case "scroll.to":
            // `scroll S --to=X,Y [--animated]` sends exactly these params (the `=` keeps a
            // negative X from reading as an option).
            guard let scroll = plainScroll(params) else { return rpc(method, params: params, into: &b) }
            b.append("scroll ")
            b.append(utf8: sessionWord ?? word(session))
            b.append(" --to=")
            JSONWriter.writeNumber(scroll.x, into: &b)
            b.append(",")
            JSONWriter.writeNumber(scroll.y, into: &b)
            b.append(scroll.animated ? " --animated\n" : "\n")
        default:
            rpc(method, params: params, into: &b)
        }
    }

    /// `scroll.to {session, offset:[x, y], animated?: true}`, what `trellis scroll --to` sends:
    /// its offset and whether it is animated; nil for any other params.
    private static func plainScroll(_ params: JSONValue) -> (x: Double, y: Double, animated: Bool)? {
        guard case .object(let m) = params, let offset = m["offset"]?.arrayValue, offset.count == 2,
              let x = offset[0].numberValue, let y = offset[1].numberValue else { return nil }
        if m.count == 2 { return (x, y, false) }
        guard m.count == 3, m["animated"] == .bool(true) else { return nil }
        return (x, y, true)
    }

    /// A number as JSON writes it: the shortest text that reads back as the same double.
    static func number(_ value: Double) -> String { JSONWriter.string(.number(value)) }

    /// How many keys an object has (the readable lines stand only for the plain form).
    private static func members(_ value: JSONValue) -> Int {
        if case .object(let m) = value { return m.count }
        return -1
    }

    /// `advance S 16.666666666666668ms`: the exact double, which the CLI parses back bit for bit.
    static func advance(_ session: String, sessionWord: String? = nil, milliseconds: Double, into b: inout ByteBuffer) {
        if session.hasPrefix("-") {
            return rpc("clock.advance", params: .object(["session": .string(session), "ms": .number(milliseconds)]), into: &b)
        }
        b.append("advance ")
        b.append(utf8: sessionWord ?? word(session))
        b.append(" ")
        JSONWriter.writeNumber(milliseconds, into: &b)
        b.append("ms\n")
    }

    /// The first line: the session as it is when the recording starts (its whole lasting state,
    /// what a snapshot holds), made afresh on a manual clock.
    static func header(_ session: Session, state: ByteBuffer, into b: inout ByteBuffer) {
        b.append(utf8: "# Recorded by trellisd from session \(session.name.commentSafe) (\(session.clock.rawValue) clock) at time \(format(session.collectionView.time * 1000))ms.\n")
        b.append("# Replay: trellis run FILE (sessions get a manual clock; the advance lines are the ticks between changes).\n")
        b.append("rpc session.create '{\"name\":")
        var name = ByteBuffer(capacity: 32)
        JSONWriter.write(.string(session.name), into: &name)
        quoted(name, into: &b)
        b.append(",\"clock\":\"manual\",\"state\":")
        quoted(state, into: &b)
        b.append("}'\n")
    }

    /// `# mark: LABEL`, the label on one line.
    static func mark(_ label: String, into b: inout ByteBuffer) {
        b.append(utf8: "# mark: \(label.commentSafe)\n")
    }

    /// Expectation lines pinning `session` as it is now: time, views on screen, offset and
    /// content size; the scroll's state; the animator's, when it has behaviours; the frames of
    /// the first and last cells on screen.
    static func checkpoint(_ session: Session, into b: inout ByteBuffer) {
        // Read in place, in one pass (SceneCheckpoint says why).
        let scene = SceneCheckpoint(reading: &session.collectionView)
        // Written straight into the bytes, numbers included: building these lines as strings
        // was a quarter of a recorded request's time.
        let name = word(session.name)
        func head() {
            b.append("expect ")
            b.append(utf8: name)
        }
        let offset = scene.offset, size = scene.contentSize
        head()
        b.append(" time=")
        write(WireEncoding.milliseconds(scene.time), into: &b)
        b.append("ms visible=")
        JSONWriter.writeInt(scene.visible, into: &b)
        b.append(" offset=")
        write(offset.x, into: &b)
        b.append(",")
        write(offset.y, into: &b)
        b.append(" contentSize=")
        write(size.width, into: &b)
        b.append("x")
        write(size.height, into: &b)
        b.append(" tolerance=")
        b.append(utf8: tolerance)
        b.append("\n")
        head()
        b.append(" scroll dragging==")
        JSONWriter.writeBool(scene.dragging, into: &b)
        b.append(" decelerating==")
        JSONWriter.writeBool(scene.decelerating, into: &b)
        b.append(" bouncing==")
        JSONWriter.writeBool(scene.bouncing, into: &b)
        b.append(" tracking==")
        JSONWriter.writeBool(scene.tracking, into: &b)
        b.append("\n")
        if scene.behaviors > 0 {
            head()
            b.append(" dynamics running==")
            JSONWriter.writeBool(scene.dynamicsRunning, into: &b)
            b.append(" behaviors==")
            JSONWriter.writeInt(scene.behaviors, into: &b)
            b.append("\n")
        }
        // The first and the last cell on screen (no array made for the two).
        for cell in 0..<2 {
            guard let (path, f) = cell == 0 ? scene.first : scene.last else { continue }
            head()
            b.append(" scene ")
            JSONWriter.writeInt(path.section, into: &b)
            b.append(":")
            JSONWriter.writeInt(path.item, into: &b)
            b.append(" frame=")
            write(f.minX, into: &b)
            b.append(",")
            write(f.minY, into: &b)
            b.append(",")
            write(f.width, into: &b)
            b.append(",")
            write(f.height, into: &b)
            b.append(" tolerance=")
            b.append(utf8: tolerance)
            b.append("\n")
        }
    }

    /// `format(value)` written into `b` without making a string.
    static func write(_ value: Double, into b: inout ByteBuffer) {
        guard value.isFinite else { return b.append("0") }
        let hundredths = (value * 100).rounded()
        if hundredths == 0 { return b.append("0") }
        guard hundredths.magnitude < 1e15 else { return b.append(utf8: format(value)) }
        JSONWriter.writeRounded(hundredths / 100, places: 2, into: &b)
    }

    /// A number to two decimals, as a person reads it (`12`, `-3.5`, `0.33`).
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let rounded = (value * 100).rounded() / 100
        if rounded == 0 { return "0" }
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int(rounded)) }
        return rounded.description
    }
}

extension String {
    /// The text with each `'` written as `'\''`, for inside single quotes.
    fileprivate var replacingQuotes: String {
        var out = ""
        for c in self { if c == "'" { out += "'\\''" } else { out.append(c) } }
        return out
    }

    /// The text on one comment line: line ends and other control characters become spaces.
    fileprivate var commentSafe: String {
        String(unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7f ? " " : Character($0) })
    }
}
