import TrellisCore
import TrellisProtocol

/// Replaces (or applies, `data.apply`) a session's data with data of any size: sections and items are written straight
/// into request bytes as they come (nothing holds all of them), and sent as one `data.reload`
/// when everything fits in one request, else as a chunked upload (`data.reload.begin`, an
/// `append` per chunk, each under the server's message limit, then `commit`), which the server
/// applies at once at the end: an upload cut short changes nothing.
public final class ChunkedReload {
    let caller: any MethodCaller
    let session: String
    /// `data.reload`, or `data.apply` (the same chunks, committed as one animated apply).
    let method: String
    /// Params the one-shot request and the commit carry besides the data (an apply's animation
    /// options and `mapping`).
    let options: [String: JSONValue]
    /// The most bytes of the sections part of one request (the message limit less the rest).
    let budget: Int
    /// Called after each chunk the server accepted, with the items sent so far.
    public var onChunk: (Int) -> Void = { _ in }

    /// The current request's `sections` array, without its brackets: `{"id":"s0","items":[a,b`.
    private var body = ByteBuffer(capacity: 1 << 16)
    private var scratch = ByteBuffer(capacity: 256)
    private var upload: String?
    /// The section being written (its id), if one was begun.
    private var section: String?
    /// Whether the body holds a section header, and items, not yet sent.
    private var sectionsInBody = 0
    private var itemsInBody = 0
    /// Whether the body's open section has an item yet (for the comma).
    private var sectionHasItems = false
    private var finished = false
    public private(set) var itemsSent = 0
    public private(set) var chunksSent = 0
    /// Items given so far (sent or waiting in the current request).
    public private(set) var itemsGiven = 0

    /// Requests are sized for the caller's server (`maximumMessageBytes`), and at most
    /// `largestRequest` bytes: bigger requests gain nothing and cost the server memory.
    public init(caller: any MethodCaller, session: String, method: String = "data.reload", options: [String: JSONValue] = [:],
                largestRequest: Int = ProtocolLimits.defaultMaximumMessageBytes) throws(ClientError) {
        self.caller = caller
        self.session = session
        self.method = method
        self.options = options
        let limit = min(try caller.maximumMessageBytes(), largestRequest)
        // The envelope, the method, the session, the options, the upload token and the closing brackets.
        var overhead = ByteBuffer()
        JSONWriter.write(.string(session), into: &overhead)
        JSONWriter.write(.object(options), into: &overhead)
        budget = limit - overhead.count - 256
        guard budget >= 256 else {
            throw .unsendable("\(method): the server's message limit of \(limit) bytes leaves no room for items after the session name")
        }
    }

    /// Starts a new section (closing the one before).
    public func beginSection(_ id: String) throws(ClientError) {
        scratch.clear()
        if section != nil { scratch.append("]}") }
        if section != nil || sectionsInBody > 0 || itemsInBody > 0 { scratch.append(UInt8(ascii: ",")) }
        scratch.append("{\"id\":")
        JSONWriter.write(.string(id), into: &scratch)
        scratch.append(",\"items\":[")
        if body.count + scratch.count + 4 > budget && (sectionsInBody > 0 || itemsInBody > 0) {
            try flush()
            section = nil
            return try beginSection(id)
        }
        body.append(scratch)
        section = id
        sectionsInBody += 1
        sectionHasItems = false
    }

    /// Adds an item (`{id, size?, reuseId?, data?}`) to the current section.
    public func append(item: JSONValue) throws(ClientError) {
        scratch.clear()
        JSONWriter.write(item, into: &scratch)
        try appendScratch()
    }

    /// Adds an item already written as JSON text (checked by the caller: the server refuses
    /// what is not an item, and the reload with it).
    public func append(encodedItem bytes: UnsafeRawBufferPointer) throws(ClientError) {
        scratch.clear()
        scratch.append(contentsOf: bytes)
        try appendScratch()
    }

    /// Adds the generated item `item<n>` labelled `#<n>` (`reload --items`), written directly.
    public func appendGenerated(_ n: Int) throws(ClientError) {
        scratch.clear()
        scratch.append("{\"id\":\"item")
        JSONWriter.writeInt(n, into: &scratch)
        scratch.append("\",\"data\":{\"label\":\"#")
        JSONWriter.writeInt(n, into: &scratch)
        scratch.append("\"}}")
        try appendScratch()
    }

    private func appendScratch() throws(ClientError) {
        guard let section else { throw .unsendable("\(method): an item came before any section (a ChunkedReload bug)") }
        // Alone in a request under its section's header (an id escaped takes at most 6 bytes a
        // byte), with the closing brackets: else no request can carry it, and nothing is sent.
        guard 32 + 6 * section.utf8.count + scratch.count <= budget else {
            throw .unsendable("\(method): item \(itemsGiven) is \(scratch.count) bytes, more than one request to this server may carry (about \(budget) bytes; trellisd --max-message-bytes)")
        }
        let separator = sectionHasItems ? 1 : 0
        if body.count + separator + scratch.count + 4 > budget {
            try flush()
            // The next chunk goes on with the same section.
            body.append("{\"id\":")
            JSONWriter.write(.string(section), into: &body)
            body.append(",\"items\":[")
            sectionHasItems = false
            return try appendScratch()
        }
        if sectionHasItems { body.append(UInt8(ascii: ",")) }
        body.append(scratch)
        sectionHasItems = true
        itemsInBody += 1
        itemsGiven += 1
    }

    /// Sends what the body holds as one chunk of the upload (beginning the upload first).
    private func flush() throws(ClientError) {
        if upload == nil {
            let began = try caller.call("\(method).begin", ["session": .string(session)])
            guard let token = began["upload"]?.stringValue else { throw .badReply("\(method).begin gave no upload token: \(JSONWriter.string(began))") }
            upload = token
        }
        var params = ByteBuffer(capacity: body.count + 128)
        params.append("{\"session\":")
        JSONWriter.write(.string(session), into: &params)
        params.append(",\"upload\":")
        JSONWriter.write(.string(upload!), into: &params)
        params.append(",\"sections\":[")
        params.append(body)
        if section != nil { params.append("]}") }
        params.append("]}")
        do {
            try caller.call("\(method).append", encodedParams: params)
        } catch {
            upload = nil   // the server dropped it with the refused chunk
            throw Self.sending(error, items: itemsSent..<(itemsSent + itemsInBody), of: method == "data.apply" ? "apply" : "reload")
        }
        itemsSent += itemsInBody
        chunksSent += 1
        body.clear()
        itemsInBody = 0
        sectionsInBody = 0
        onChunk(itemsSent)
    }

    /// Sends what is left and applies it all: the result of `data.reload` (`{sections, items}`)
    /// or of `data.apply` (an update result).
    public func finish() throws(ClientError) -> JSONValue {
        finished = true
        guard upload != nil else {
            var params = ByteBuffer(capacity: body.count + 128)
            params.append("{")
            for key in options.keys.sorted() {
                JSONWriter.write(.string(key), into: &params)
                params.append(UInt8(ascii: ":"))
                JSONWriter.write(options[key]!, into: &params)
                params.append(UInt8(ascii: ","))
            }
            params.append("\"session\":")
            JSONWriter.write(.string(session), into: &params)
            params.append(",\"sections\":[")
            params.append(body)
            if section != nil { params.append("]}") }
            params.append("]}")
            let result = try caller.call(method, encodedParams: params)
            itemsSent += itemsInBody
            return result
        }
        if itemsInBody > 0 || sectionsInBody > 0 { try flush() }
        var params = options
        params["session"] = .string(session)
        params["upload"] = .string(upload!)
        return try caller.call("\(method).commit", params)
    }

    /// Drops an upload begun but not committed (the data could not all be read): the session
    /// stays as it was. Best effort: a server that is gone dropped it already.
    public func abort() {
        guard let upload, !finished else { return }
        self.upload = nil
        _ = try? caller.call("\(method).abort", ["session": .string(session), "upload": .string(upload)])
    }

    /// A chunk's error, naming the items it carried (the server's message says what was wrong).
    static func sending(_ error: ClientError, items: Range<Int>, of what: String = "reload") -> ClientError {
        guard case .server(let code, let message, let domainCode, let data) = error else { return error }
        return .server(code: code, message: "items \(items.lowerBound)…\(items.upperBound - 1) of the \(what): \(message)", domainCode: domainCode, data: data)
    }
}
