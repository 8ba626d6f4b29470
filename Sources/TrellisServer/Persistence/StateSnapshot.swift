import TrellisCore
import TrellisProtocol

/// The snapshot file (`snapshot.json`): every session's lasting state at one moment, and the
/// seq of the last journal line it covers. Written by compaction, read at start before the
/// journal's later lines are replayed on top.
///
/// `{"format":"trellis-state","version":1,"seq":40,"sessions":[{name, clock, time, bounds,
/// contentInset, contentOffset, layout, sections, selected, allowsSelection,
/// allowsMultipleSelection, motion?, dynamics?, scroll?, dynamicsStepRate?, scrollClock?}, …]}`
/// (`motion`: what was in flight, MotionStateCoding; `dynamicsStepRate` when not 60, and
/// `scrollClock` [accumulated, lastTime] when the scroll's 60 Hz clock differs from the animator's).
struct StateSnapshot {
    static let format = "trellis-state"
    static let version = 1

    /// The last journal seq whose effect the snapshot holds.
    var seq: Int
    var sessions: [SessionState]
    /// Sessions of the file that could not be read, each with why (the others load all the same).
    var unreadable: [(name: String, reason: String)] = []

    init(seq: Int, sessions: [SessionState]) {
        self.seq = seq
        self.sessions = sessions
    }

    var json: JSONValue {
        .object(["format": .string(Self.format), "version": .number(Double(Self.version)), "seq": .number(Double(seq)),
                 "sessions": .array(sessions.map(\.json))])
    }

    /// The file's bytes (one JSON document and a line end).
    var bytes: ByteBuffer { Self.bytes(seq: seq, encodedSessions: sessions.map { Self.written($0) }) }

    /// One session's JSON, or an error when a NaN or an infinity reached it (JSON cannot carry
    /// it, and the file must read back as it was).
    static func encode(_ state: SessionState) throws(PersistenceError) -> ByteBuffer {
        let b = written(state)
        guard !b.holdsNonFiniteNumber else {
            throw PersistenceError("session '\(state.name)' holds a non-finite number (NaN or infinity), which the snapshot cannot write")
        }
        return b
    }

    /// The data is most of a large session's state: it is written straight into the bytes (a
    /// million items would otherwise become a million JSON objects first), the rest as an object.
    private static func written(_ state: SessionState) -> ByteBuffer {
        var rest = ByteBuffer(capacity: 1024)
        JSONWriter.write(.object(state.membersBesideData), into: &rest)
        var b = ByteBuffer(capacity: rest.count + 32 + state.data.totalItemCount * 16)
        b.append("{\"sections\":")
        DataEncoding.write(sections: state.data, into: &b)
        // `rest` is `{"allowsMultipleSelection":…}`, never empty: it goes on after a comma.
        rest.withUnsafeBytes { raw in
            b.append(UInt8(ascii: ","))
            b.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw.dropFirst()))
        }
        if rest.holdsNonFiniteNumber { b.noteNonFiniteNumber() }
        return b
    }

    /// The file's bytes from sessions each already written as JSON.
    static func bytes(seq: Int, encodedSessions: [ByteBuffer]) -> ByteBuffer {
        var b = ByteBuffer(capacity: 64 + encodedSessions.reduce(0) { $0 + $1.count + 1 })
        b.append(utf8: "{\"format\":\"\(format)\",\"version\":\(version),\"seq\":\(seq),\"sessions\":[")
        for (k, session) in encodedSessions.enumerated() {
            if k > 0 { b.append(UInt8(ascii: ",")) }
            b.append(session)
        }
        b.append("]}\n")
        return b
    }

    /// Reads the file's bytes; errors name `file` and the key path.
    init(bytes: [UInt8], file: String) throws(PersistenceError) {
        if let scanned = Self.scanned(bytes) {
            self = scanned
            return
        }
        try self.init(parsing: bytes, file: file)
    }

    /// Reads the file's bytes as one JSON tree, the checked way; errors name `file` and the key path.
    init(parsing bytes: [UInt8], file: String) throws(PersistenceError) {
        let value: JSONValue
        do { value = try JSONParser.parse(bytes, limits: JournalParser.limits) } catch {
            throw PersistenceError("\(file): not a snapshot (\(error.message)); snapshots are replaced atomically, so this file was changed by something else. Move it aside (or start with --no-persistence) to start anyway")
        }
        do throws(ParamError) {
            guard try value.requireString("format", in: "snapshot") == Self.format else {
                throw ParamError(path: "snapshot.format", .mismatch(expected: "\"\(Self.format)\"", found: "another format"))
            }
            let version = try value.requireInt("version", in: "snapshot")
            guard version == Self.version else {
                throw ParamError(path: "snapshot.version", .mismatch(expected: "\(Self.version) (this trellisd's format)", found: "\(version)"))
            }
            seq = try value.requireInt("seq", in: "snapshot")
            var sessions: [SessionState] = []
            for (n, s) in try value.requireArray("sessions", in: "snapshot").enumerated() {
                // One session that cannot be read is set aside; it does not take the others with it.
                do throws(ParamError) {
                    sessions.append(try SessionState(s, path: "snapshot.sessions[\(n)]"))
                } catch {
                    unreadable.append((s.field("name")?.stringValue ?? "sessions[\(n)]", "\(file): \(error.message)"))
                }
            }
            self.sessions = sessions
        } catch {
            throw PersistenceError("\(file): \(error.message)")
        }
    }
}

extension StateSnapshot {
    /// The file as this trellisd writes it (`bytes(seq:encodedSessions:)`), each session's data
    /// read straight from its bytes (`UploadChunkScanner.sectionsFirstObject`) and only the rest
    /// parsed: a million items parsed into a tree and read again were most of a restart. Nil for
    /// anything else (another spacing, a form the scanner leaves to the parser, a session that
    /// does not read): the checked parse then reads the file and words what is wrong.
    static func scanned(_ bytes: [UInt8]) -> StateSnapshot? {
        let head = Array("{\"format\":\"\(format)\",\"version\":\(version),\"seq\":".utf8)
        guard bytes.starts(with: head) else { return nil }
        var at = head.count, seq = 0, digits = 0
        while at < bytes.count, bytes[at] >= 0x30, bytes[at] <= 0x39, digits < 18 {
            seq = seq * 10 + Int(bytes[at] - 0x30)
            at += 1
            digits += 1
        }
        // As the parser reads an integer: digits, no leading zero.
        guard digits > 0, !(digits > 1 && bytes[head.count] == 0x30) else { return nil }
        let middle = Array(",\"sessions\":[".utf8)
        guard bytes[at...].starts(with: middle) else { return nil }
        at += middle.count
        var sessions: [SessionState] = []
        if at < bytes.count, bytes[at] != UInt8(ascii: "]") {
            while true {
                guard let (sections, others, end) = UploadChunkScanner.sectionsFirstObject(in: bytes, at: at),
                      let value = try? JSONParser.parse(others, limits: JournalParser.limits), value.field("sections") == nil,
                      let data = try? CollectionData(sections: sections),
                      let state = try? SessionState(value, path: "snapshot.sessions[\(sessions.count)]", data: data) else { return nil }
                sessions.append(state)
                at = end
                guard at < bytes.count, bytes[at] == UInt8(ascii: ",") else { break }
                at += 1
            }
        }
        guard bytes[at...].elementsEqual("]}\n".utf8) else { return nil }
        return StateSnapshot(seq: seq, sessions: sessions)
    }
}

/// What of a session outlives the process: the model state a client set (data, layout, bounds,
/// insets, offset, selection, clock and time) and whatever was in flight (running animations,
/// an animated scroll, an interactive transition with its progress), so compaction never waits
/// for stillness. Not kept, by design: view ids and the reuse pool's counters (viewers attach
/// again and get a keyframe), frame numbers and viewers.
struct SessionState: Sendable {
    var name: String
    var clock: Session.Clock
    var time: Double
    var bounds: Size
    var contentInset: EdgeInsets
    var contentOffset: Point
    var layout: JSONValue
    var data: CollectionData
    var selected: [ItemID]
    var selectionPolicy: SelectionPolicy
    /// What was in flight (empty at rest: then the key is left out).
    var motion: MotionState
    /// Bodies, behaviours and the simulation's state (left out when nothing dynamic was set up).
    var dynamics: DynamicsSnapshot
    /// The user's scrolling: its settings and a drag or fling in flight (left out when a new
    /// session's).
    var scrolling: ScrollDeceleration
    /// The animator's steps per second (left out at 60, the default: older snapshots restore at 60).
    var dynamicsStepRate: Int
    /// The released scroll's clock, when it differs from the animator's (they are one clock until
    /// the step rate leaves 60); nil: the same.
    var scrollClock: (accumulated: Double, lastTime: Double?)?

    /// The session's state, or an error when its layout has no protocol object to write.
    init(_ session: Session) throws(PersistenceError) {
        let view = session.collectionView
        guard let layout = LayoutEncoding.json(view.layout) else {
            throw PersistenceError("session '\(session.name)' uses a '\(view.layout.typeName)' layout, which the snapshot cannot write yet")
        }
        name = session.name
        clock = session.clock
        time = view.time
        bounds = view.scroll.boundsSize
        contentInset = view.scroll.contentInset
        contentOffset = view.scroll.contentOffset
        self.layout = layout
        data = view.data
        selected = view.selectedItems
        selectionPolicy = view.selectionPolicy
        motion = view.motion
        motionJSON = motion.isEmpty ? nil : try MotionStateCoding.json(motion, session: session.name)
        dynamics = view.dynamicsSnapshot { WireBehaviorSpec(BehaviorSpec.settled(WireBehaviorSpec.json($1), $0)) }
        scrolling = view.scrollDeceleration
        dynamicsStepRate = view.dynamicsStepRate
        let clock = view.scrollTimestep
        let physics = dynamics.timestep
        scrollClock = physics.map { $0.accumulated == clock.accumulated && $0.lastTime == clock.lastTime } == true ? nil : clock
    }

    /// `motion` as the file writes it (checked when the state was taken, so writing cannot fail).
    private var motionJSON: JSONValue?

    var json: JSONValue {
        var members = membersBesideData
        members["sections"] = DataEncoding.sections(data)
        return .object(members)
    }

    /// Every key of `json` but `sections`.
    var membersBesideData: [String: JSONValue] {
        var members: [String: JSONValue] = [
            "name": .string(name), "clock": .string(clock.rawValue), "time": .number(time),
            "bounds": .array([.number(bounds.width), .number(bounds.height)]),
            "contentInset": .array([.number(contentInset.top), .number(contentInset.left),
                                    .number(contentInset.bottom), .number(contentInset.right)]),
            "contentOffset": .array([.number(contentOffset.x), .number(contentOffset.y)]),
            "layout": layout,
            "selected": .array(selected.map { .string($0.rawValue) }),
            "allowsSelection": .bool(selectionPolicy.allowsSelection),
            "allowsMultipleSelection": .bool(selectionPolicy.allowsMultipleSelection),
        ]
        if let motionJSON { members["motion"] = motionJSON }
        if !dynamics.isEmpty { members["dynamics"] = DynamicsStateCoding.json(dynamics) }
        if let scroll = ScrollStateCoding.json(scrolling) { members["scroll"] = scroll }
        if dynamicsStepRate != CollectionView.dynamicsStepRates[0] { members["dynamicsStepRate"] = .number(Double(dynamicsStepRate)) }
        if let scrollClock { members["scrollClock"] = .array([.number(scrollClock.accumulated), scrollClock.lastTime.map(JSONValue.number) ?? .null]) }
        return members
    }

    /// `data`: the sections, when they were read apart (`StateSnapshot.scanned`).
    init(_ value: JSONValue, path: String, data given: CollectionData? = nil) throws(ParamError) {
        try value.rejectUnknownKeys(allowed: ["name", "clock", "time", "bounds", "contentInset", "contentOffset", "layout",
                                              "sections", "selected", "allowsSelection", "allowsMultipleSelection", "motion", "dynamics", "scroll",
                                              "dynamicsStepRate", "scrollClock"],
                                      path: path)
        name = try value.requireString("name", in: path)
        let clockName = try value.requireString("clock", in: path)
        guard let clock = Session.Clock(rawValue: clockName) else {
            throw ParamError(path: "\(path).clock", .mismatch(expected: "\"live\" or \"manual\"", found: "\"\(clockName)\""))
        }
        self.clock = clock
        time = try value.requireNumber("time", in: path)
        let b = try value.requireNumbers("bounds", count: 2, labels: ["width", "height"], in: path)
        bounds = Size(b[0], b[1])
        let i = try value.requireNumbers("contentInset", count: 4, labels: ["top", "left", "bottom", "right"], in: path)
        contentInset = EdgeInsets(top: i[0], left: i[1], bottom: i[2], right: i[3])
        let o = try value.requireNumbers("contentOffset", count: 2, labels: ["x", "y"], in: path)
        contentOffset = Point(o[0], o[1])
        layout = try value.requireObject("layout", in: path)
        _ = try LayoutSpec.layout(layout, path: "\(path).layout")
        if let given {
            data = given
        } else {
            do { data = try WireDecoding.data(value, path: path) } catch {
                switch error {
                case .params(let p): throw p
                case .data(let d): throw ParamError(path: "\(path).sections", .mismatch(expected: "unique identifiers", found: d.description))
                }
            }
        }
        selected = []
        for (n, id) in try value.requireArray("selected", in: path).enumerated() {
            guard case .string(let s) = id else {
                throw ParamError(path: "\(path).selected[\(n)]", .mismatch(expected: "an item identifier", found: id.kindDescription))
            }
            selected.append(ItemID(s))
        }
        selectionPolicy = SelectionPolicy(allowsSelection: try value.requireBool("allowsSelection", in: path),
                                          allowsMultipleSelection: try value.requireBool("allowsMultipleSelection", in: path))
        motionJSON = try value.optionalObject("motion", in: path)
        motion = try motionJSON.map { m throws(ParamError) in try MotionStateCoding.motion(m, path: "\(path).motion") } ?? MotionState()
        dynamics = try value.optionalObject("dynamics", in: path).map { d throws(ParamError) in
            try DynamicsStateCoding.snapshot(d, path: "\(path).dynamics")
        } ?? DynamicsSnapshot()
        dynamicsPath = "\(path).dynamics"
        scrolling = try value.optionalObject("scroll", in: path).map { v throws(ParamError) in
            try ScrollStateCoding.physics(v, path: "\(path).scroll")
        } ?? ScrollDeceleration()
        dynamicsStepRate = try SpecReader(value, path: path).optionalStepRate("dynamicsStepRate") ?? CollectionView.dynamicsStepRates[0]
        if let clock = try value.optionalArray("scrollClock", in: path) {
            let clockPath = "\(path).scrollClock"
            guard clock.count == 2, case .number(let accumulated) = clock[0], accumulated.isFinite, accumulated >= 0 else {
                throw ParamError(path: clockPath, .mismatch(expected: "[accumulated seconds, last time in seconds or null]", found: JSONWriter.string(.array(clock))))
            }
            switch clock[1] {
            case .null: scrollClock = (accumulated, nil)
            case .number(let last) where last.isFinite: scrollClock = (accumulated, last)
            default: throw ParamError(path: clockPath, .mismatch(expected: "[accumulated seconds, last time in seconds or null]", found: JSONWriter.string(.array(clock))))
            }
        }
    }

    /// Where `dynamics` was read from, for the messages of its restore.
    private var dynamicsPath = "dynamics"

    /// A collection view in this state, built with the engine's public inputs as a client would
    /// drive it: create, set the offset, select, move the clock, then resume what was in flight.
    func makeView() throws(ParamError) -> CollectionView {
        // The layout object was checked when the snapshot was read.
        let layout = (try? LayoutSpec.layout(self.layout)) ?? FlowLayout()
        var view = CollectionView(boundsSize: bounds, layout: layout, data: data, contentInset: contentInset)
        // First: the clock the restore advances steps at this rate, as the session's did.
        view.setDynamicsStepRate(dynamicsStepRate)
        view.selectionPolicy = selectionPolicy
        view.setContentOffset(contentOffset)
        for id in selected {
            if let indexPath = data.indexPath(of: id) { try? view.select(indexPath) }
        }
        view.advance(to: time)
        if !dynamics.isEmpty { try DynamicsStateCoding.restore(dynamics, on: &view, path: dynamicsPath) }
        // After the animator's (which, restored, sets both clocks, as they were one before).
        if let scrollClock { view.restoreScrollTimestep(accumulated: scrollClock.accumulated, lastTime: scrollClock.lastTime) }
        _ = view.drainEvents()
        view.resume(motion)
        view.resumeScrolling(scrolling)
        return view
    }
}
