import TrellisProtocol

/// What a page may ask of trellisd through its bridge, checked before anything is forwarded: a
/// page is code from a browser, so the bridge relays a short list of methods, only for the
/// session the page watches, and mutating ones only when trellis-web runs with `--control`.
/// trellisd checks everything again (a page that only watches is attached read-only, so
/// trellisd itself refuses what changes the session); the bridge's own checks say why in the
/// page's terms and keep a page from reaching other sessions or other methods at all.
enum PageRequest {
    /// Methods any page may call: what the status bar and hit tests read, and the timeline's
    /// reads of a recorded session's past (`recording.info`, `session.seek`).
    /// (`session.attach` only with `debug`: the page's debug toggle attaches again.)
    static let watching: Set<String> = [
        "session.info", "stats", "hit", "query.scene", "query.attributes", "session.attach", "recording.info", "session.seek",
    ]
    /// Methods a page may call with `--control`: the pointer, the wheel and the toolbar (its
    /// sample picker reshapes the data with `data.apply`).
    static let driving: Set<String> = [
        "gesture.pan", "gesture.tap", "gesture.touch", "batch", "data.apply", "layout.set", "scroll.to", "scroll.toItem",
    ]
    /// A page's request is a gesture or a toolbar command: anything larger is not one of ours.
    static let maximumBytes = 64 << 10
    /// Requests a page may have sent and not yet had answered; beyond it the bridge refuses at
    /// once, so a page that sends without reading cannot queue work in trellisd or here.
    static let maximumUnanswered = 64

    /// Forward this line to trellisd, or answer the page with this reply instead.
    enum Verdict: Equatable, Sendable {
        case forward(String)
        case refuse(String)
    }

    /// Checks one text message from a page attached to `session`; `control` is `--control`.
    /// A forwarded request names the page's session whatever it said (`params.session` may be
    /// left out; another name is refused).
    static func check(_ text: String, session: String, control: Bool) -> Verdict {
        guard text.utf8.count <= maximumBytes else {
            return .refuse(refusal(id: .null, code: -32005, dataCode: "limit_exceeded",
                                 "a request of \(text.utf8.count) bytes: the page sends at most \(maximumBytes)"))
        }
        let request: JSONValue
        do { request = try JSONParser.parse(text) } catch {
            return .refuse(refusal(id: .null, code: -32700, dataCode: nil, "not JSON: \(error.message)"))
        }
        guard case .object(var envelope) = request else {
            return .refuse(refusal(id: .null, code: -32600, dataCode: nil, "a request is a JSON object, found \(request.kindDescription)"))
        }
        // The bridge counts replies to bound what is unanswered, so every request needs one.
        guard let id = envelope["id"], id.numberValue != nil || id.stringValue != nil else {
            return .refuse(refusal(id: .null, code: -32600, dataCode: nil, "a page's request needs an id (a number or a string): notifications are not relayed"))
        }
        guard let method = envelope["method"]?.stringValue else {
            return .refuse(refusal(id: id, code: -32600, dataCode: nil, "method: expected a string"))
        }
        if driving.contains(method) && !control {
            return .refuse(refusal(id: id, code: -32004, dataCode: "read_only",
                                 "this page only watches: start trellis-web with --control to drive the session"))
        }
        guard watching.contains(method) || driving.contains(method) else {
            let known = (control ? watching.union(driving) : watching).sorted().joined(separator: ", ")
            return .refuse(refusal(id: id, code: -32601, dataCode: nil, "trellis-web does not relay '\(method)' from a page; it relays \(known)"))
        }
        var params: [String: JSONValue] = [:]
        switch envelope["params"] {
        case nil, .null?: break
        case .object(let given)?: params = given
        case let other?:
            return .refuse(refusal(id: id, code: -32602, dataCode: nil, "params: expected an object, found \(other.kindDescription)"))
        }
        if let named = params["session"], named != .string(session) {
            return .refuse(refusal(id: id, code: -32602, dataCode: nil,
                                 "params.session: this page is attached to '\(session)'; open /?session=NAME to watch another"))
        }
        if method == "session.attach" {
            // A page attaches again only to show or hide the debug layer, and stays as
            // read-only as the bridge attached it.
            let debug = params["debug"] ?? .bool(false)
            guard case .bool = debug, params.keys.allSatisfy({ $0 == "session" || $0 == "debug" }) else {
                return .refuse(refusal(id: id, code: -32602, dataCode: nil,
                                     "params: a page's session.attach takes only debug (true or false), to show or hide the debug layer"))
            }
            params = ["debug": debug, "readOnly": .bool(!control)]
        }
        params["session"] = .string(session)
        envelope["params"] = .object(params)
        return .forward(JSONWriter.string(.object(envelope)))
    }

    /// The refusal when `maximumUnanswered` requests wait for their replies.
    static func tooManyUnanswered(_ text: String) -> String {
        let id = (try? JSONParser.parse(text))?["id"] ?? .null
        return refusal(id: id, code: -32005, dataCode: "limit_exceeded",
                     "\(maximumUnanswered) requests are waiting for their replies: wait for them before sending more")
    }

    /// Whether a line trellisd wrote is a reply (and not a notification). trellisd writes the
    /// envelope's keys in one order, `jsonrpc` then `id` for replies, `method` for
    /// notifications, so the prefix tells them apart without parsing a frame.
    static func isReply(_ line: String) -> Bool {
        line.utf8.starts(with: #"{"jsonrpc":"2.0","id":"#.utf8)
    }

    /// A JSON-RPC error reply in trellisd's shape (`data.code` for the domain's codes).
    static func refusal(id: JSONValue, code: Int, dataCode: String?, _ message: String) -> String {
        var error: [String: JSONValue] = ["code": .number(Double(code)), "message": .string(message)]
        if let dataCode { error["data"] = .object(["code": .string(dataCode)]) }
        return JSONWriter.string(.object(["jsonrpc": .string("2.0"), "id": id, "error": .object(error)]))
    }
}
