#if canImport(Glibc)
import Glibc
#endif
import TrellisCore
import TrellisProtocol

/// What a method does to the server's state, declared once in its table entry. Everything that
/// follows is derived from it: whether read-only viewers may call it, whether it is journaled
/// (and checked durable first), whether the session it names publishes a frame after the reply,
/// and whether a live clock is brought to now before it runs.
enum MethodEffect: Sendable {
    /// Reads only: not journaled, publishes nothing, allowed on read-only connections. A live
    /// clock is brought to now only while its session moves (so what it reads is now).
    case reads
    /// Changes a session's lasting state: journaled before the reply, its session publishes
    /// after it, a live clock is brought to now first; refused on read-only connections.
    case changesSession
    /// Changes the server itself, no session's lasting state (shutdown, a chunked reload being
    /// staged): refused on read-only connections, not journaled.
    case changesServer
}

/// One protocol method as data (tmux's cmd_entry, Redis's command table): its name, its
/// effect, and its handler. The dispatcher is a table lookup; each method family declares its
/// entries in its own file, named after the method's prefix (`scroll.to` is in ScrollMethods).
struct Method: Sendable {
    let name: String
    let effect: MethodEffect
    let handler: @Sendable (inout MethodContext) throws(RPCError) -> JSONValue
    /// Reads the method's params straight from their bytes in their common form (nil: not
    /// that form, so they are parsed the checked way): the params without what it decoded,
    /// and that (`MethodContext.scannedSections`). For the methods that carry a million items.
    var scanParams: (@Sendable (UnsafeRawBufferPointer) -> ScannedParams?)?

    init(_ name: String, _ effect: MethodEffect, handler: @escaping @Sendable (inout MethodContext) throws(RPCError) -> JSONValue) {
        self.name = name
        self.effect = effect
        self.handler = handler
    }

    /// This method with `scan` reading its params from bytes.
    func scanningParams(with scan: @escaping @Sendable (UnsafeRawBufferPointer) -> ScannedParams?) -> Method {
        var method = self
        method.scanParams = scan
        return method
    }

    /// Read-only viewers may not call it.
    var mutates: Bool { effect != .reads }
    /// Journaled before its reply (and refused when that cannot be made durable).
    var isJournaled: Bool { effect == .changesSession }
}

/// Params read from a request's bytes by a method's `scanParams`: the plain members as a tree,
/// and the sections they carried, already decoded.
struct ScannedParams {
    var params: JSONValue
    var sections: [Section]
}

/// What a handler sees: the server, the calling client, the params, and the session it touched
/// (its frame is published after the reply).
struct MethodContext {
    let server: Server
    let client: Client
    let params: JSONValue
    let effect: MethodEffect
    /// The session whose frame is published after the reply (set by `sessionBroughtToNow()` for methods
    /// that change a session).
    private(set) var touched: Session?
    /// A result the handler encoded itself (a scene, attributes), written as it is instead of
    /// the returned value, which is then ignored: no JSONValue tree is built and encoded again.
    var encodedResult: ByteBuffer?
    /// Whether the handler may leave work for later loop turns (a socket request may; one in
    /// process or replayed from the journal runs to its end at once).
    let canDefer: Bool
    /// Work the handler left for later loop turns; its returned value is then ignored, and the
    /// request is answered (and journaled) when the work is done.
    var deferred: DeferredWork?
    /// The sections the method's `scanParams` decoded from the request's bytes (then missing
    /// from `params`).
    var scannedSections: [Section]?
    /// Set by a handler that made its change durable itself (a chunked reload's commit, whose
    /// data is in no request, takes a snapshot): the dispatcher then journals nothing for it.
    var journaledByHandler = false

    init(server: Server, client: Client, params: JSONValue, scannedSections: [Section]? = nil, effect: MethodEffect,
         canDefer: Bool = false) {
        self.server = server
        self.client = client
        self.params = params
        self.scannedSections = scannedSections
        self.effect = effect
        self.canDefer = canDefer
    }

    /// True while the request's physics is within its budget (`requestBudgetMilliseconds`).
    var withinBudget: () -> Bool {
        let server = server, deadline = server.requestDeadline
        return { server.nowMilliseconds < deadline }
    }

    /// The session named by `params.session`, its live clock brought to now first (always for a
    /// method that changes it, else while it moves), and marked touched when the method changes
    /// it (so its frame is published): the name says it is more than a lookup.
    mutating func sessionBroughtToNow() throws(RPCError) -> Session {
        let name: String
        do { name = try params.requireString("session") } catch { throw .invalidParams(error) }
        guard let session = server.sessions[name] else {
            throw .unknownSession(name, known: server.sessions.keys.sorted())
        }
        // Mutations start from now; a query moves the clock only while something animates, so
        // an idle session's time (and so what viewers hold) does not drift between frames.
        let changes = effect == .changesSession
        if changes || session.collectionView.needsTicks {
            session.syncClock(toLoopMilliseconds: server.nowMilliseconds, dynamicsWhile: withinBudget)
        }
        if changes { touched = session }
        return session
    }

    /// The result written straight into bytes by `write` (the reply carries them as they are).
    mutating func encoded(capacity: Int = 1024, _ write: (inout ByteBuffer) -> Void) -> JSONValue {
        // The server's result buffer, taken for this request and given back after the reply,
        // so an encoded result allocates nothing once the buffer has grown.
        var buffer = server.resultBuffer
        server.resultBuffer = ByteBuffer()
        buffer.clear()
        buffer.reserveCapacity(capacity)
        write(&buffer)
        encodedResult = buffer
        return .null
    }

    /// Params checked against the keys a method accepts.
    func allow(_ keys: [String]) throws(RPCError) {
        do { try params.rejectUnknownKeys(allowed: keys) } catch { throw .invalidParams(error) }
    }

    func string(_ key: String) throws(RPCError) -> String {
        do { return try params.requireString(key) } catch { throw .invalidParams(error) }
    }
    func optionalString(_ key: String) throws(RPCError) -> String? {
        do { return try params.optionalString(key) } catch { throw .invalidParams(error) }
    }
    func optionalBool(_ key: String) throws(RPCError) -> Bool? {
        do { return try params.optionalBool(key) } catch { throw .invalidParams(error) }
    }
    func number(_ key: String) throws(RPCError) -> Double {
        do { return try params.requireNumber(key) } catch { throw .invalidParams(error) }
    }
    func numbers(_ key: String, _ labels: [String]) throws(RPCError) -> [Double] {
        do { return try params.requireNumbers(key, count: labels.count, labels: labels) } catch { throw .invalidParams(error) }
    }
    func optionalNumbers(_ key: String, _ labels: [String]) throws(RPCError) -> [Double]? {
        do { return try params.optionalNumbers(key, count: labels.count, labels: labels) } catch { throw .invalidParams(error) }
    }
    func indexPath(_ key: String) throws(RPCError) -> IndexPath {
        guard let value = params.field(key) else { throw .invalidParams(ParamError(path: "params.\(key)", .missing(expected: "an index path [section, item]"))) }
        do { return try WireDecoding.indexPath(value, path: "params.\(key)") } catch { throw .invalidParams(error) }
    }
    /// The animation options (`WireDecoding.timingKeys`).
    func timing(defaultAnimated: Bool = true, base: AnimationTiming = .default) throws(RPCError) -> AnimationTiming {
        do { return try WireDecoding.timing(params, defaultAnimated: defaultAnimated, base: base) } catch { throw .invalidParams(error) }
    }
    func layout() throws(RPCError) -> any Layout {
        guard let value = params.field("layout") else { throw .invalidParams(ParamError(path: "params.layout", .missing(expected: "a layout object {type: \"flow\" | \"circle\", …}"))) }
        do { return try LayoutSpec.layout(value) } catch { throw .invalidParams(error) }
    }
}

/// Every method, by name.
enum MethodTable {
    static let all: [Method] = ServerMethods.entries + SessionMethods.entries + ClockMethods.entries
        + DataMethods.entries + ReloadUploadMethods.entries + BatchMethods.entries + LayoutMethods.entries + ViewMethods.entries
        + ScrollMethods.entries + GestureMethods.entries + HitMethods.entries + SelectionMethods.entries
        + QueryMethods.entries + DynamicsMethods.entries + BodyMethods.entries + RecordingMethods.entries
    static let byName: [String: Method] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })
    static let names: [String] = all.map(\.name).sorted()
    private static let nameBytes: [[UInt8]] = all.map { Array($0.name.utf8) }

    /// The method named by `name`'s bytes, found without making a String of them (every
    /// request's path): a few dozen length checks and one byte comparison.
    static func method(named name: UnsafeRawBufferPointer) -> Method? {
        for index in nameBytes.indices where nameBytes[index].count == name.count {
            let equal = nameBytes[index].withUnsafeBytes { candidate in
                name.isEmpty || memcmp(candidate.baseAddress!, name.baseAddress!, name.count) == 0
            }
            if equal { return all[index] }
        }
        return nil
    }
}
