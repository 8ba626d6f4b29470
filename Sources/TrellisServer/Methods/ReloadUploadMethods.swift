import TrellisCore
import TrellisJSON
import TrellisProtocol
import TrellisTransport

/// The chunked form of data.reload, for data too large for one request (`--max-message-bytes`
/// stays a guard, not a wall): `data.reload.begin` opens an upload, `data.reload.append` stages
/// chunks of sections, `data.reload.commit` replaces the session's data with everything staged
/// at once, exactly as one `data.reload` of it would, and `data.reload.abort` drops it. Until
/// the commit the session is untouched: a refused chunk, an abort or a closed connection leaves
/// it as it was and frees what was staged (`ReloadUploads`). `data.apply.begin` … `commit` is
/// the same for a snapshot, committed as the one `data.apply` of it (diffed and animated).
enum ReloadUploadMethods {
    static let entries: [Method] = family(.reload) + family(.apply)

    /// `begin`, `append`, `commit` and `abort` of one purpose (`data.reload.*`, `data.apply.*`).
    private static func family(_ purpose: UploadPurpose) -> [Method] {
        let prefix = purpose.method
        return [
            // Staging changes no session (nothing is journaled until the commit), but it is a
            // change all the same: read-only connections may not stage.
            Method("\(prefix).begin", .changesServer) { context throws(RPCError) in
                try context.allow(["session"])
                let name = try context.string("session")
                let server = context.server
                guard let session = server.sessions[name] else { throw .unknownSession(name, known: server.sessions.keys.sorted()) }
                let client = ObjectIdentifier(context.client)
                if let pending = server.reloadUploads[client] {
                    throw .domain("invalid_state", "this connection already has upload '\(pending.token)' pending for session '\(pending.sessionName)' (one upload at a time per connection): commit it with \(pending.purpose.method).commit or drop it with \(pending.purpose.method).abort first",
                                  details: ["upload": .string(pending.token)])
                }
                let token = server.reloadUploads.makeToken()
                server.reloadUploads[client] = ReloadUpload(token: token, sessionName: name, session: session, purpose: purpose)
                return .object(["upload": .string(token),
                                "maxItems": .number(Double(server.reloadUploads.maximumItems)),
                                "maxBytes": .number(Double(server.reloadUploads.maximumBytes))])
            },
            Method("\(prefix).append", .changesServer) { context throws(RPCError) in
                try append(&context, purpose)
            }.scanningParams(with: scanChunk),
            purpose == .reload ? Method("data.reload.commit", .changesSession, handler: commitReload)
                               : Method("data.apply.commit", .changesSession, handler: commitApply),
            Method("\(prefix).abort", .changesServer) { context throws(RPCError) in
                try context.allow(["session", "upload"])
                let upload = try pendingUpload(context, purpose)
                context.server.reloadUploads.drop(ObjectIdentifier(context.client))
                return .object(["upload": .string(upload.token), "items": .number(Double(upload.itemCount))])
            },
        ]
    }

    private static func append(_ context: inout MethodContext, _ purpose: UploadPurpose) throws(RPCError) -> JSONValue {
        try context.allow(["session", "upload", "sections"])
        let server = context.server, client = ObjectIdentifier(context.client)
        // Taken out while it grows (so its arrays are not copied), and put back only when
        // the chunk is accepted: a refused chunk ends the upload and frees what it staged.
        var upload = try pendingUpload(context, purpose)
        server.reloadUploads.drop(client)
        do throws(RPCError) {
            let sections: [Section]
            if let scanned = context.scannedSections {
                sections = scanned
            } else {
                do throws(ParamError) {
                    sections = try WireDecoding.sections(try context.params.requireArray("sections", in: "params"), path: "params.sections")
                } catch { throw .invalidParams(error) }
            }
            let cost = ReloadUpload.cost(of: sections)
            let uploads = server.reloadUploads
            if uploads.stagedItems + upload.itemCount + cost.items > uploads.maximumItems {
                throw .domain("limit_exceeded", "this chunk would stage \(upload.itemCount + cost.items) items in upload '\(upload.token)'\(uploads.stagedItems > 0 ? " (and other connections' uploads hold \(uploads.stagedItems))" : ""), over the server's limit of \(uploads.maximumItems) items staged at once (trellisd --max-upload-items)",
                              details: ["limit": .number(Double(uploads.maximumItems))])
            }
            if uploads.stagedBytes + upload.stagedBytes + cost.bytes > uploads.maximumBytes {
                throw .domain("limit_exceeded", "this chunk would stage about \(upload.stagedBytes + cost.bytes) bytes in upload '\(upload.token)'\(uploads.stagedBytes > 0 ? " (and other connections' uploads hold \(uploads.stagedBytes))" : ""), over the server's limit of \(uploads.maximumBytes) bytes staged at once (trellisd --max-upload-bytes)",
                              details: ["limit": .number(Double(uploads.maximumBytes))])
            }
            do throws(DataError) { try upload.append(sections, bytes: cost.bytes) } catch {
                throw .domain("invalid_data", "\(error.description) (a section of an earlier chunk goes on only as the first section of the next)")
            }
        } catch {
            throw abandoned(error, upload)
        }
        let result: JSONValue = .object(["upload": .string(upload.token), "chunks": .number(Double(upload.chunks)),
                                         "sections": .number(Double(upload.sectionIDs.count)),
                                         "items": .number(Double(upload.itemCount))])
        server.reloadUploads[client] = upload
        return result
    }

    /// A chunk's params in their common form read from bytes (`UploadChunkScanner`): a million
    /// items are no tree of a million objects.
    @Sendable private static func scanChunk(_ bytes: UnsafeRawBufferPointer) -> ScannedParams? {
        UploadChunkScanner.scan(bytes).map {
            ScannedParams(params: .object(["session": .string($0.session), "upload": .string($0.upload)]), sections: $0.sections)
        }
    }

    /// The pending upload ended for its commit, and its staged sections (a refused commit
    /// changes nothing: the upload is gone, the session untouched).
    private static func takenUpload(_ context: inout MethodContext, _ purpose: UploadPurpose) throws(RPCError) -> (Session, token: String, StagedSections, bytes: Int) {
        let server = context.server, client = ObjectIdentifier(context.client)
        var upload = try pendingUpload(context, purpose)
        // The upload ends here whatever follows: a commit that is refused changes nothing.
        server.reloadUploads.drop(client)
        let session = try context.sessionBroughtToNow()
        guard upload.session === session else {
            throw .domain("invalid_state", "session '\(session.name)' was closed and made again since upload '\(upload.token)' began; the upload is dropped and nothing changed: begin a new one")
        }
        return (session, upload.token, upload.takeStaged(), upload.stagedBytes)
    }

    /// What a commit works out before it touches the session, from values only (so a socket's
    /// commit does it on libuv's thread pool, `committed`): the staged data checked across every
    /// chunk and joined, an apply's diff, and the params of the one request the commit equals
    /// (its journal line and recorded script line), when a journal or a recording will write
    /// them: at a million items they are ~47 MB nobody reads otherwise.
    private struct CommitWork: Sendable {
        var data: CollectionData
        var plan: SnapshotPlan?
        var params: ByteBuffer?
    }

    /// Why a commit was refused before it touched the session.
    private enum CommitRefusal: Error, Sendable {
        case data(DataError)
        case update(UpdateError)
    }

    private static func work(_ staged: StagedSections, purpose: UploadPurpose, base: CollectionData,
                             session: String, options: [(String, JSONValue)], encodesParams: Bool) -> Result<CommitWork, CommitRefusal> {
        let data: CollectionData
        do throws(DataError) { data = try staged.data() } catch { return .failure(.data(error)) }
        var plan: SnapshotPlan?
        if purpose == .apply {
            do throws(UpdateError) { plan = try SnapshotPlan(from: base, to: data) } catch { return .failure(.update(error)) }
        }
        let params = encodesParams ? self.params(data, session: session, options: options) : nil
        return .success(CommitWork(data: data, plan: plan, params: params))
    }

    /// The params of the one `data.reload` or `data.apply` a commit of `data` equals.
    private static func params(_ data: CollectionData, session: String, options: [(String, JSONValue)]) -> ByteBuffer {
        var params = ByteBuffer(capacity: 64 + data.totalItemCount * 24)
        var object = JSONObjectWriter(into: &params)
        for (key, value) in options {
            object.key(key, into: &params)
            JSONWriter.write(value, into: &params)
        }
        object.field("session", session, into: &params)
        object.key("sections", into: &params)
        DataEncoding.write(sections: data, into: &params)
        object.end(into: &params)
        return params
    }

    /// Whether a recording of `session` will write a commit of its params (a recording begins
    /// only between requests naming the session, never during a commit).
    private static func isRecorded(_ session: Session, server: Server) -> Bool {
        session.recording != nil
    }

    /// How a commit is made durable: by its journal line, or (`snapshot`) by a snapshot of
    /// everything written off the loop, which the commit's reply waits for (`Persistence.snapshotInstead`).
    private enum Durability {
        case line
        case snapshot((PersistenceError?) -> Void)
    }

    /// A commit whose work is done: the session changed (reloaded, or the plan applied with
    /// `timing`), the change journaled (or its snapshot started: `awaitingSnapshot`) and
    /// recorded, and the reply's bytes; or why it was refused.
    private static func install(_ work: Result<CommitWork, CommitRefusal>, purpose: UploadPurpose, token: String,
                                session: Session, timing: AnimationTiming, form: MappingForm,
                                options: [(String, JSONValue)], durability: Durability,
                                server: Server) -> (DeferredOutcome, awaitingSnapshot: Bool) {
        let done: CommitWork
        switch work {
        case .success(let work): done = work
        case .failure(.data(let error)):
            return (.failure(.domain("invalid_data", "\(error.description) (checked across every chunk of the upload); upload '\(token)' is dropped and session '\(session.name)' is unchanged: begin a new upload",
                                    details: ["upload": .string(token)])), false)
        case .failure(.update(let error)):
            var error = RPCError.from(error)
            error.message += "; upload is dropped and session '\(session.name)' is unchanged"
            return (.failure(error), false)
        }
        var reply = ByteBuffer(capacity: 512)
        if let plan = done.plan {
            let applied: (update: Int, batch: BatchUpdate, result: UpdateResult)
            do throws(UpdateError) { applied = try session.collectionView.applySnapshot(plan, animation: timing) } catch {
                return install(.failure(.update(error)), purpose: purpose, token: token, session: session, timing: timing, form: form,
                               options: options, durability: durability, server: server)
            }
            WireEncoding.writeUpdateResult(applied.result, update: applied.update, mapping: form, into: &reply)
        } else {
            session.collectionView.reloadData(done.data)
            var object = JSONObjectWriter(into: &reply)
            object.field("sections", done.data.numberOfSections, into: &reply)
            object.field("items", done.data.totalItemCount, into: &reply)
            object.end(into: &reply)
        }
        var journaled = false, awaitingSnapshot = false
        switch durability {
        case .line: journaled = server.persistence != nil
        case .snapshot(let done):
            awaitingSnapshot = server.persistence?.snapshotInstead(of: session.name, done) ?? false
            // No snapshot may start now: the line after all.
            journaled = !awaitingSnapshot && server.persistence != nil
        }
        if journaled || isRecorded(session, server: server) {
            // Worked out with the rest when the commit began; else (a snapshot that could not
            // start, rare) here.
            let params = done.params ?? self.params(done.data, session: session.name, options: options)
            do throws(RPCError) { try save(purpose.method, params: params, of: session, journaled: journaled, server: server) } catch {
                return (.failure(error), false)
            }
        }
        server.memoryTrim.trim(now: server.nowMilliseconds)
        return (.encoded(reply), awaitingSnapshot)
    }

    /// A commit whose snapshot failed is journaled after all (its params encoded on the loop:
    /// the disk refused a write, which is rare and is logged): its reply, or why it was not saved.
    private static func journalAfterFailedSnapshot(_ done: CommitWork, _ reply: DeferredOutcome, purpose: UploadPurpose,
                                                   session: Session, options: [(String, JSONValue)], server: Server) -> DeferredOutcome {
        guard let persistence = server.persistence else { return reply }
        let params = done.params ?? self.params(done.data, session: session.name, options: options)
        do throws(RPCError) {
            try persistence.record(method: purpose.method, touched: session, capacity: params.count) { $0.append(params) }
        } catch {
            return .failure(error)
        }
        return reply
    }

    /// A commit: on a socket its work goes to libuv's thread pool and the request waits for it
    /// (a million items take 1-2 s of checking, diffing and encoding, which would hold the loop),
    /// with every other request naming the session parked behind it, so the data it was
    /// worked out from is the data it lands on; in process (embedded, replay) it runs at once.
    /// A commit whose journal line alone would make the journal due for compaction is made
    /// durable by that compaction's snapshot instead of the line, and answered once the snapshot
    /// is in place: the line was the data once more, written on the loop (47 MB at a million).
    private static func commit(_ context: inout MethodContext, _ purpose: UploadPurpose, timing: AnimationTiming,
                               form: MappingForm, options: [(String, JSONValue)]) throws(RPCError) -> JSONValue {
        let (session, token, staged, bytes) = try takenUpload(&context, purpose)
        let server = context.server, base = session.collectionView.data, name = session.name
        let bySnapshot = context.canDefer && bytes >= (server.persistence?.compactionBytes ?? Int.max)
        // The params are written by the journal (unless a snapshot stands for the line) and by
        // a recording of the session.
        let encodesParams = isRecorded(session, server: server) || (server.persistence != nil && !bySnapshot)
        context.journaledByHandler = true
        if context.canDefer {
            let slot = CommitSlot()
            let queued = BackgroundWork.run(on: server.loop, { work(staged, purpose: purpose, base: base, session: name, options: options, encodesParams: encodesParams) },
                                            completion: { [weak server] result in
                                                slot.result = result
                                                server?.pendingRunner.start()
                                            })
            if queued {
                let durability: Durability = !bySnapshot ? .line : .snapshot({ [weak server] error in
                    slot.snapshot = .some(error)
                    server?.pendingRunner.start()
                })
                var deferred = DeferredWork(session: session) { session, _ in
                    guard let result = slot.result else { return nil }
                    guard let reply = slot.reply else {
                        let (outcome, awaiting) = install(result, purpose: purpose, token: token, session: session, timing: timing,
                                                          form: form, options: options, durability: durability, server: server)
                        if !awaiting { return outcome }
                        slot.reply = outcome
                        return nil
                    }
                    guard let snapshot = slot.snapshot, case .success(let done) = result else { return nil }
                    // The snapshot's encoding (twice the data, on the pool) is freed now: the
                    // trim at install ran before it was.
                    server.memoryTrim.trim(now: server.nowMilliseconds)
                    guard let error = snapshot else { return reply }
                    server.logger.warning("the snapshot standing for a commit's journal line failed (\(error.description)); journaling the commit instead")
                    return journalAfterFailedSnapshot(done, reply, purpose: purpose, session: session, options: options, server: server)
                }
                deferred.awaitingPool = { slot.isAway }
                deferred.journaledByStep = true
                context.deferred = deferred
                return .null
            }
        }
        let (outcome, _) = install(work(staged, purpose: purpose, base: base, session: name, options: options, encodesParams: encodesParams),
                                   purpose: purpose, token: token, session: session, timing: timing, form: form,
                                   options: options, durability: .line, server: server)
        switch outcome {
        case .failure(let error): throw error
        case .encoded(let bytes): context.encodedResult = bytes; return .null
        case .value(let value): return value
        }
    }

    /// Where the pool's result waits for the loop (read only after libuv ordered the two), and
    /// then, for a commit a snapshot makes durable, its reply and how the snapshot went.
    private final class CommitSlot: @unchecked Sendable {
        var result: Result<CommitWork, CommitRefusal>?
        var reply: DeferredOutcome?
        /// nil while the snapshot is being written; `.some(nil)` once it is in place.
        var snapshot: PersistenceError??
        /// Nothing for the loop to take: the work is on the pool, or its snapshot is being written.
        var isAway: Bool { result == nil || (reply != nil && snapshot == nil) }
    }

    @Sendable private static func commitReload(_ context: inout MethodContext) throws(RPCError) -> JSONValue {
        try context.allow(["session", "upload"])
        _ = try pendingUpload(context, .reload)
        return try commit(&context, .reload, timing: .default, form: .ranges, options: [])
    }

    /// As one `data.apply` of everything staged: the same diff, animation and reply. Its
    /// animation options and `mapping` come with the commit (they are read before the upload
    /// ends, so a bad one leaves it pending); the journal line carries the options, which
    /// replay needs to animate it the same way.
    @Sendable private static func commitApply(_ context: inout MethodContext) throws(RPCError) -> JSONValue {
        try context.allow(WireDecoding.timingKeys + ["session", "upload", "mapping"])
        _ = try pendingUpload(context, .apply)
        let timing = try context.timing()
        let form = try context.mappingForm()
        let options = WireDecoding.timingKeys.compactMap { key in context.params.field(key).map { (key, $0) } }
        return try commit(&context, .apply, timing: timing, form: form, options: options)
    }

    /// The calling connection's upload named by `params.upload`, for `params.session`.
    private static func pendingUpload(_ context: MethodContext, _ purpose: UploadPurpose) throws(RPCError) -> ReloadUpload {
        let token = try context.string("upload")
        let name = try context.string("session")
        guard let upload = context.server.reloadUploads[ObjectIdentifier(context.client)], upload.token == token else {
            throw .domain("invalid_state", "no upload '\(token)' is pending on this connection: an upload belongs to the connection that began it and ends at its commit or abort, at a refused chunk, or when the connection closes; begin one with \(purpose.method).begin",
                          details: ["upload": .string(token)])
        }
        guard upload.purpose == purpose else {
            throw .domain("invalid_state", "upload '\(token)' was begun with \(upload.purpose.method).begin: send its chunks, commit or abort with \(upload.purpose.method).append, .commit or .abort (it is still pending)",
                          details: ["upload": .string(token)])
        }
        guard upload.sessionName == name else {
            throw .invalidParams("params.session: upload '\(token)' \(upload.purpose == .apply ? "applies to" : "reloads") session '\(upload.sessionName)', not '\(name)'")
        }
        return upload
    }

    /// A refused chunk's error, saying that the upload is over and nothing changed.
    private static func abandoned(_ error: RPCError, _ upload: ReloadUpload) -> RPCError {
        var error = error
        let staged = upload.itemCount == 1 ? "1 item" : "\(upload.itemCount) items"
        error.message += "; upload '\(upload.token)' is dropped, freeing the \(staged) it staged before this chunk, and session '\(upload.sessionName)' is unchanged: begin a new upload"
        error.details["upload"] = .string(upload.token)
        return error
    }

    /// Records a commit, and journals it unless a snapshot stands for its line (`journaled`
    /// false). Its data is in no request, so it is written as the one `data.reload` or
    /// `data.apply` it equals, with `params` written beforehand (no JSON tree of a million
    /// items). Journal first, reply second, as for every change.
    private static func save(_ method: String, params: ByteBuffer, of session: Session, journaled: Bool, server: Server) throws(RPCError) {
        let writeParams = { (b: inout ByteBuffer) in b.append(params) }
        // The flight recorder writes it as the same request (FlightRecorder).
        server.recordCommitted(method, session: session, capacity: params.count, writeParams: writeParams)
        guard journaled, let persistence = server.persistence else { return }
        try persistence.record(method: method, touched: session, capacity: params.count, writeParams: writeParams)
    }
}
