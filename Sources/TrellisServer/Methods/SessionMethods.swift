import TrellisCore
import TrellisProtocol

/// session.create, session.fork, session.list, session.info, session.destroy, session.attach, session.detach.
enum SessionMethods {
    static let entries: [Method] = [
        Method("session.create", .changesSession) { context throws(RPCError) in
            try context.allow(["name", "bounds", "layout", "clock", "sections", "contentInset", "scroll", "dynamicsStepRate", "state"])
            let name = try newSessionName(context)
            if let state = context.params.field("state") { return try restored(context, name: name, state: state) }
            let bounds = try context.optionalNumbers("bounds", ["width", "height"], in: ParamRanges.bounds, positive: true) ?? [375, 812]
            let layout: any Layout = context.params.field("layout") == nil ? FlowLayout() : try context.layout()
            let clockName = try context.optionalString("clock") ?? "live"
            guard var clock = Session.Clock(rawValue: clockName) else {
                throw .invalidParams("params.clock: expected \"live\" or \"manual\", found \"\(clockName)\"")
            }
            if context.server.manualClocksOnly { clock = .manual }
            var data = CollectionData()
            if context.params.field("sections") != nil {
                do throws(WireError) { data = try WireDecoding.data(context.params) } catch { throw .from(error) }
            }
            let inset = try context.optionalInsets("contentInset") ?? .zero
            var scrolling = ScrollConfiguration()
            if let object = context.params.field("scroll") {
                do throws(ParamError) { scrolling = try ScrollWire.configuration(object, path: "params.scroll", base: scrolling) } catch { throw .invalidParams(error) }
            }
            let stepRate = try context.optionalStepRate("dynamicsStepRate") ?? CollectionView.dynamicsStepRates[0]
            var view = CollectionView(boundsSize: Size(bounds[0], bounds[1]), layout: layout, data: data, contentInset: inset)
            view.configureScrolling(scrolling)
            view.setDynamicsStepRate(stepRate)
            let session = Session(name: name, collectionView: view, clock: clock, epochMilliseconds: context.server.nowMilliseconds,
                                  contactLimit: context.server.configuration.maximumContacts)
            context.server.sessions[name] = session
            return info(session)
        },
        Method("session.fork", .changesSession) { context throws(RPCError) in
            try context.allow(["session", "name", "clock", "at", "atFrame"])
            let name = try newSessionName(context)
            let clockName = try context.optionalString("clock") ?? "manual"
            guard var clock = Session.Clock(rawValue: clockName) else {
                throw .invalidParams("params.clock: expected \"manual\" (the default) or \"live\", found \"\(clockName)\"")
            }
            if context.server.manualClocksOnly { clock = .manual }
            if context.params.field("at") != nil || context.params.field("atFrame") != nil {
                return try forkedFromThePast(&context, name: name, clock: clock)
            }
            // The source is brought to now (and touched, so a live source's journal line carries
            // its time and a replay forks it at the same moment); nothing of it changes.
            let source = try context.sessionBroughtToNow()
            // The same state a restart restores, taken in memory: what the snapshot keeps is
            // exactly what continues a session bit for bit (SnapshotContinuityTests).
            var state: SessionState
            let view: CollectionView
            do throws(PersistenceError) { state = try SessionState(source) } catch {
                throw .domain("invalid_state", "session '\(source.name)' cannot be forked: \(error.description)")
            }
            state.name = name
            do throws(ParamError) { view = try state.makeView() } catch {
                throw .domain("invalid_state", "session '\(source.name)' cannot be forked: \(error.message)")
            }
            return install(view, name: name, clock: clock, context)
        },
        Method("session.list", .reads) { context throws(RPCError) in
            try context.allow([])
            var result: [String: JSONValue] = ["sessions": .array(context.server.sessions.keys.sorted().map { info(context.server.sessions[$0]!) })]
            // Sessions set aside at start (Persistence), only when there are any.
            if let failed = context.server.persistence?.failedSessions, !failed.isEmpty { result["failed"] = .array(failed.map(\.json)) }
            return .object(result)
        },
        Method("session.info", .reads) { context throws(RPCError) in
            try context.allow(["session"])
            let session = try context.sessionBroughtToNow()
            var result = members(session)
            result["selected"] = .array(session.collectionView.selectedItems.map { .string($0.rawValue) })
            return .object(result)
        },
        Method("session.destroy", .changesSession) { context throws(RPCError) in
            try context.allow(["session"])
            let session = try context.sessionBroughtToNow()
            context.server.close(session, reason: "destroyed")
            return .object(["destroyed": .string(session.name)])
        },
        Method("session.attach", .reads) { context throws(RPCError) in
            try context.allow(["session", "readOnly", "events", "debug"])
            let session = try context.sessionBroughtToNow()
            let readOnly = try context.optionalBool("readOnly") ?? false
            let debug = try context.optionalBool("debug") ?? false
            var subscriptions: Set<String> = []
            switch context.params.field("events") {
            case nil: break
            case .array(let names)?:
                for (i, name) in names.enumerated() {
                    guard case .string(let event) = name, Viewer.optionalEvents.contains(event) else {
                        throw .invalidParams("params.events[\(i)]: expected one of \(Viewer.optionalEvents.map { "\"\($0)\"" }.joined(separator: ", ")) (every other notification always comes), found \(name)")
                    }
                    subscriptions.insert(event)
                }
            case let other?:
                throw .invalidParams("params.events: expected an array of notification names, found \(other.kindDescription)")
            }
            let client = context.client
            guard client.connection != nil else {
                throw .domain("invalid_state", "session.attach needs a connection to send frames to; an in-process run has none (run against a server with --socket to attach)")
            }
            if let previous = client.viewing { previous.viewers[client.connection.id] = nil }
            // Bring the session's published state up to date first, so the keyframe is the
            // state every caught-up viewer holds. With no viewers nothing was being published:
            // start again from the scene as it is.
            if session.viewers.isEmpty {
                _ = session.collectionView.drainEvents()
                session.published = PublishedScene(keyframe: session.collectionView.scene)
            } else {
                context.server.publish(session)
            }
            // The debug layer's keyframe is the one debug viewers hold; the first of them starts
            // it from the engine as it is (the scene's keyframe is of the same moment).
            if debug && !session.hasDebugViewers {
                session.buildDebugLayer()
                session.publishedDebug = PublishedDebugLayer(keyframe: session.debugLayer)
            }
            let viewer = Viewer(connection: client.connection, readOnly: readOnly, subscriptions: subscriptions, debug: debug)
            session.viewers[client.connection.id] = viewer
            client.viewing = session
            // Encoded once, straight from the scene: building a JSONValue of a large scene and
            // encoding it again cost several times the scene's own encoding.
            return context.encoded(capacity: max(4096, session.lastFrameBytes * 2)) { buffer in
                var o = JSONObjectWriter(into: &buffer)
                o.key("keyframe", into: &buffer)
                WireEncoding.writeScene(session.published.scene, into: &buffer)
                if debug {
                    o.key("debug", into: &buffer)
                    WireEncoding.writeDebugLayer(session.publishedDebug.shapes, into: &buffer)
                }
                o.field("readOnly", readOnly, into: &buffer)
                o.field("seq", session.seq, into: &buffer)
                o.field("session", session.name, into: &buffer)
                o.end(into: &buffer)
            }
        },
        Method("session.detach", .reads) { context throws(RPCError) in
            try context.allow([])
            guard let session = context.client.viewing, context.client.connection != nil else {
                throw .domain("invalid_state", "this connection is not attached to a session")
            }
            session.viewers[context.client.connection.id] = nil
            context.client.viewing = nil
            return .object(["detached": .string(session.name)])
        },
    ]

    static func info(_ session: Session) -> JSONValue { .object(members(session)) }

    /// `params.name` checked as a new session's name: one printable line, not taken.
    /// `session.create {name, clock?, state}`: a session made from a whole lasting state, as a
    /// snapshot holds it (the first line of a flight recording), so a replay starts exactly
    /// where the recording did. Nothing else may stand beside `state`: it holds it all.
    private static func restored(_ context: MethodContext, name: String, state value: JSONValue) throws(RPCError) -> JSONValue {
        try context.allow(["name", "clock", "state"])
        let clockName = try context.optionalString("clock") ?? "manual"
        guard var clock = Session.Clock(rawValue: clockName) else {
            throw .invalidParams("params.clock: expected \"manual\" (the default with state) or \"live\", found \"\(clockName)\"")
        }
        if context.server.manualClocksOnly { clock = .manual }
        let view: CollectionView
        do throws(ParamError) {
            var state = try SessionState(value, path: "params.state")
            try StateRanges.check(state, path: "params.state")
            state.name = name
            view = try state.makeView()
        } catch {
            throw .invalidParams(error)
        }
        return install(view, name: name, clock: clock, context)
    }

    /// `session.fork` with `at`/`atFrame`: the recorded source as it was then (SessionSeek, over
    /// later loop turns when the replay is long), journaled as the `session.create {state}` it
    /// amounts to, as no history outlives the server.
    private static func forkedFromThePast(_ context: inout MethodContext, name: String, clock: Session.Clock) throws(RPCError) -> JSONValue {
        let server = context.server
        let history = try server.recording(&context).history
        let source = try context.string("session")
        let moment = try server.seekMoment(context, history: history, required: true)!
        // The fork journals itself, in one go or at its last deferred step.
        context.journaledByHandler = true
        let installing = context
        return try server.seek(history, name: source, at: moment.time, &context) { (past: Session) throws(RPCError) -> DeferredOutcome in
            // A deferred replay let other requests run: the name may have been taken meanwhile.
            guard server.sessions[name] == nil else {
                throw .domain("session_exists", "a session named '\(name)' was created while the fork replayed '\(source)'; destroy it first or choose another name",
                              details: ["session": .string(name)])
            }
            var state: SessionState
            let view: CollectionView
            let encoded: ByteBuffer
            do throws(PersistenceError) {
                state = try SessionState(past)
                state.name = name
                encoded = try StateSnapshot.encode(state)
            } catch {
                throw .domain("invalid_state", "session '\(source)' cannot be forked: \(error.description)")
            }
            do throws(ParamError) { view = try state.makeView() } catch {
                throw .domain("invalid_state", "session '\(source)' cannot be forked: \(error.message)")
            }
            let info = install(view, name: name, clock: clock, installing)
            if let persistence = server.persistence {
                try persistence.record(method: "session.create", touched: server.sessions[name], capacity: encoded.count + 256) { b in
                    b.append("{\"clock\":")
                    JSONWriter.write(.string(clock.rawValue), into: &b)
                    b.append(",\"name\":")
                    JSONWriter.write(.string(name), into: &b)
                    b.append(",\"state\":")
                    b.append(encoded)
                    b.append("}")
                }
            }
            return .value(info)
        }
    }

    /// A session made from a restored state (a fork, a `state` at creation) joins the server:
    /// its clock's epoch is set so that a live one goes on from the state's time.
    private static func install(_ view: CollectionView, name: String, clock: Session.Clock, _ context: MethodContext) -> JSONValue {
        var view = view
        _ = view.drainEvents()
        let now = context.server.nowMilliseconds
        let session = Session(name: name, collectionView: view, clock: clock,
                              epochMilliseconds: clock == .live ? now - view.time * 1000 : now,
                              contactLimit: context.server.configuration.maximumContacts)
        context.server.sessions[name] = session
        return info(session)
    }

    private static func newSessionName(_ context: MethodContext) throws(RPCError) -> String {
        let name = try context.string("name")
        // Control characters are refused, so a name can be printed anywhere as it is (`ls`, logs).
        guard !name.isEmpty, name.count <= 128,
              !name.contains(where: \.isNewline),
              !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .invalidParams("params.name: expected a non-empty name of at most 128 characters without control characters (tabs, line ends, escapes)")
        }
        guard context.server.sessions[name] == nil else {
            throw .domain("session_exists", "a session named '\(name)' already exists; destroy it first or choose another name",
                          details: ["session": .string(name)])
        }
        return name
    }

    /// The session info's members (session.info adds the selection).
    static func members(_ session: Session) -> [String: JSONValue] {
        let view = session.collectionView
        return [
            "name": .string(session.name), "clock": .string(session.clock.rawValue),
            "bounds": .array([.number(view.scroll.boundsSize.width), .number(view.scroll.boundsSize.height)]),
            "layout": .string(view.layout.typeName), "sections": .number(Double(view.data.numberOfSections)),
            "items": .number(Double(view.data.totalItemCount)), "time": .number(WireEncoding.milliseconds(view.time)),
            "viewers": .number(Double(session.viewers.count)), "seq": .number(Double(session.seq)),
            "scroll": ScrollWire.state(view), "dynamicsStepRate": .number(Double(view.dynamicsStepRate)),
        ]
    }
}
