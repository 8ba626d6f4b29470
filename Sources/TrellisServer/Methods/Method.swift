import TrellisCore
import TrellisProtocol

/// One protocol method as data (tmux's cmd_entry, Redis's command table): its name, whether it
/// changes a session (read-only viewers may not call those), and its handler. The dispatcher
/// is a table lookup; each method family declares its entries in its own file.
struct Method: Sendable {
    let name: String
    let mutates: Bool
    let handler: @Sendable (inout MethodContext) throws(RPCError) -> JSONValue
}

/// What a handler sees: the server, the calling client, the params, and the session it touched
/// (its frame is published after the reply).
struct MethodContext {
    let server: Server
    let client: Client
    let params: JSONValue
    /// Whether the method changes state (then a live session's clock is brought to now first).
    var mutates = true
    var touched: Session?
    /// A result the handler encoded itself (the attach keyframe: a whole scene), written as it
    /// is instead of the returned value, which is then ignored.
    var encodedResult: ByteBuffer?

    /// The session named by `params.session`, marked as touched.
    mutating func session() throws(RPCError) -> Session {
        let name: String
        do { name = try params.requireString("session") } catch { throw .invalidParams(error) }
        guard let session = server.sessions[name] else {
            throw .unknownSession(name, known: server.sessions.keys.sorted())
        }
        // Mutations start from now; a query moves the clock only while something animates, so
        // an idle session's time (and so what viewers hold) does not drift between frames.
        if mutates || session.collectionView.needsTicks { session.syncClock(toLoopMilliseconds: server.nowMilliseconds) }
        touched = session
        return session
    }

    /// Params checked against the keys a method accepts.
    func allow(_ keys: Set<String>) throws(RPCError) {
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
    static let all: [Method] = ServerMethods.entries + SessionMethods.entries + DataMethods.entries
        + LayoutMethods.entries + ViewMethods.entries + QueryMethods.entries
    static let byName: [String: Method] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })
    static let names: [String] = all.map(\.name).sorted()
}
