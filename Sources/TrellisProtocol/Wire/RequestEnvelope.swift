/// A JSON-RPC request's envelope read straight from its bytes, without building a tree: where
/// the method name and the params are, and the id. Every request passes here, and parsing the
/// envelope into a dictionary was a third of a small request's cost (hashing and allocation).
///
/// Only the common form is read: one object whose keys are `jsonrpc`, `id`, `method` and
/// `params`, each at most once and without escapes; `jsonrpc` exactly `"2.0"`; an id that is
/// an integer of at most 15 digits or a string of printable ASCII without escapes (or no id);
/// a method name of printable ASCII without escapes; params an object, or absent. Anything
/// else (other keys, escapes, a fraction in the id, a bad value) gives nil and the caller
/// parses the whole message, which also words the error for a bad one exactly. The params'
/// bytes are only delimited here; the caller parses them with the strict parser.
public struct RequestEnvelope: Equatable, Sendable {
    /// The request's id as it was written.
    public enum ID: Equatable, Sendable {
        /// A notification: no reply.
        case none
        case integer(Int)
        /// The bytes between the quotes (printable ASCII, no escapes).
        case string(Range<Int>)
    }

    public var id: ID
    /// The bytes between the method name's quotes.
    public var method: Range<Int>
    /// The params object's bytes, braces included; nil when absent.
    public var params: Range<Int>?

    /// The envelope of `bytes` when it has the common form, else nil (see the type's comment).
    public static func scan(_ bytes: UnsafeRawBufferPointer) -> RequestEnvelope? {
        var cursor = JSONByteCursor(bytes)
        return cursor.envelope()
    }

    /// Writes the id into a reply, byte for byte as `JSONWriter` writes the parsed id (`null`
    /// for a notification's): the scan only passes integers of at most 15 digits (written back
    /// digit for digit) and strings of printable ASCII without quotes or backslashes (written
    /// back as they are), so a reply can echo it without a `JSONValue` in between.
    public func writeID(of bytes: UnsafeRawBufferPointer, into output: inout ByteBuffer) {
        switch id {
        case .none: JSONWriter.writeNull(into: &output)
        case .integer(let value): JSONWriter.writeInt(value, into: &output)
        case .string(let range):
            output.append(UInt8(ascii: "\""))
            output.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[range]))
            output.append(UInt8(ascii: "\""))
        }
    }

    /// Whether the method name is `name` (ASCII).
    public func method(in bytes: UnsafeRawBufferPointer, is name: StaticString) -> Bool {
        guard method.count == name.utf8CodeUnitCount else { return false }
        let expected = name.utf8Start
        for offset in 0..<method.count where bytes[method.lowerBound + offset] != expected[offset] { return false }
        return true
    }

    /// Whether the request has no params: none given, or `{}` (with any whitespace inside).
    public func hasNoParams(in bytes: UnsafeRawBufferPointer) -> Bool {
        guard let params else { return true }
        // The scan delimited an object: its first byte is `{`, its last `}`.
        for index in (params.lowerBound + 1)..<(params.upperBound - 1) {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: continue
            default: return false
            }
        }
        return true
    }
}

/// The byte walk behind `RequestEnvelope.scan`; every "not the common form" is a nil.
extension JSONByteCursor {
    fileprivate mutating func envelope() -> RequestEnvelope? {
        skipSpace()
        guard take(UInt8(ascii: "{")) else { return nil }
        var id: RequestEnvelope.ID = .none, method: Range<Int>?, params: Range<Int>?
        var seenVersion = false, seenID = false
        skipSpace()
        if take(UInt8(ascii: "}")) { return nil }
        while true {
            skipSpace()
            guard let key = plainString() else { return nil }
            skipSpace()
            guard take(UInt8(ascii: ":")) else { return nil }
            skipSpace()
            switch keyName(key) {
            case .version:
                guard !seenVersion, let version = plainString(), matches(version, "2.0") else { return nil }
                seenVersion = true
            case .id:
                guard !seenID, let value = requestID() else { return nil }
                seenID = true
                id = value
            case .method:
                guard method == nil, let name = plainString() else { return nil }
                method = name
            case .params:
                guard params == nil, let object = objectExtent() else { return nil }
                params = object
            case nil:
                return nil
            }
            skipSpace()
            if take(UInt8(ascii: ",")) { continue }
            guard take(UInt8(ascii: "}")) else { return nil }
            break
        }
        skipSpace()
        guard isAtEnd, seenVersion, let method else { return nil }
        return RequestEnvelope(id: id, method: method, params: params)
    }

    private enum Key { case version, id, method, params }

    private func keyName(_ key: Range<Int>) -> Key? {
        if matches(key, "jsonrpc") { return .version }
        if matches(key, "id") { return .id }
        if matches(key, "method") { return .method }
        if matches(key, "params") { return .params }
        return nil
    }

    /// An integer id (no fraction or exponent, at most 15 digits so it is exact as a JSON
    /// number), or a plain string id.
    private mutating func requestID() -> RequestEnvelope.ID? {
        if at < bytes.count, bytes[at] == Self.quote { return plainString().map { .string($0) } }
        let negative = take(UInt8(ascii: "-"))
        let start = at
        var value = 0
        while at < bytes.count, bytes[at] >= UInt8(ascii: "0"), bytes[at] <= UInt8(ascii: "9") {
            // Longer ids are the parser's (and more digits would overflow the value).
            guard at - start < 15 else { return nil }
            value = value * 10 + Int(bytes[at] - UInt8(ascii: "0"))
            at += 1
        }
        let digits = at - start
        guard digits > 0, digits == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
        // A fraction or an exponent follows: the parser's business.
        if at < bytes.count, bytes[at] == UInt8(ascii: ".") || bytes[at] | 0x20 == UInt8(ascii: "e") { return nil }
        // -0 is a number the parser keeps as -0; leave it to the parser.
        if negative && value == 0 { return nil }
        return .integer(negative ? -value : value)
    }

    /// The extent of an object value: from its `{` to the matching `}`, strings (and the
    /// brackets inside them) skipped. Its contents are checked by the parser afterwards.
    private mutating func objectExtent() -> Range<Int>? {
        guard at < bytes.count, bytes[at] == UInt8(ascii: "{") else { return nil }
        let start = at
        var depth = 0
        var inString = false
        while at < bytes.count {
            let byte = bytes[at]
            at += 1
            if inString {
                if byte == Self.backslash { at += 1 } else if byte == Self.quote { inString = false }
                continue
            }
            switch byte {
            case Self.quote: inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return byte == UInt8(ascii: "}") ? start..<at : nil }
            default: break
            }
        }
        return nil
    }
}
