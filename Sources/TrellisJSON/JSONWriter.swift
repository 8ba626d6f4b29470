/// Writes compact JSON into a `ByteBuffer`.
///
/// Hand-written for the same reason as `JSONParser` (Foundation measured ~1 ms per 4 KB here).
/// Hot paths (frames, replies) call the `@inlinable` primitives and `JSONObjectWriter` /
/// `JSONArrayWriter` directly instead of building a `JSONValue` first.
///
/// - Strings: `"`, `\` and control characters U+0000–U+001F are escaped (`\n`, `\r`, `\t`,
///   `\b`, `\f`, else `\u00XX`); everything else, `/` and non-ASCII included, is written as is.
/// - Numbers: integers without a fraction (`3`, not `3.0`), plain below 1e16 and with an
///   exponent above (`1e+16`); other finite values in Swift's shortest round-trip form (`0.1`,
///   `1e-05`, `5e-324`); `-0` keeps its sign. JSON has no NaN or infinity: they are written as `null`
///   and counted in the buffer (`ByteBuffer.holdsNonFiniteNumber`), which every sender and the
///   persistence check so that such a buffer is refused, never sent or stored.
/// - Objects from a `JSONValue` are written with keys in ascending UTF-8 byte order (code point
///   order), so equal values always give identical bytes.
public enum JSONWriter {
    /// Appends `value` as compact JSON. Recurses once per nesting level, which parsed values
    /// bound by `JSONLimits.maximumDepth`.
    public static func write(_ value: JSONValue, into buffer: inout ByteBuffer) {
        switch value {
        case .null:
            writeNull(into: &buffer)
        case .bool(let flag):
            writeBool(flag, into: &buffer)
        case .number(let number):
            writeNumber(number, into: &buffer)
        case .string(let text):
            writeString(text, into: &buffer)
        case .array(let elements):
            buffer.append(UInt8(ascii: "["))
            var first = true
            for element in elements {
                if !first { buffer.append(UInt8(ascii: ",")) }
                first = false
                write(element, into: &buffer)
            }
            buffer.append(UInt8(ascii: "]"))
        case .object(let members):
            buffer.append(UInt8(ascii: "{"))
            if members.count <= 8 {
                writeSmallObject(members, into: &buffer)
            } else {
                var first = true
                for (key, member) in members.sorted(by: { keyPrecedes($0.key, $1.key) }) {
                    if !first { buffer.append(UInt8(ascii: ",")) }
                    first = false
                    writeMember(key, member, into: &buffer)
                }
            }
            buffer.append(UInt8(ascii: "}"))
        }
    }

    /// The members of a small object (most results) in key order, sorted on the stack: an
    /// insertion sort of their indices (a handful of comparisons, no allocation).
    private static func writeSmallObject(_ members: [String: JSONValue], into buffer: inout ByteBuffer) {
        withUnsafeTemporaryAllocation(of: Dictionary<String, JSONValue>.Index.self, capacity: members.count) { order in
            var count = 0
            var index = members.startIndex
            while index != members.endIndex {
                let key = members[index].key
                var slot = count
                while slot > 0, keyPrecedes(key, members[order[slot - 1]].key) {
                    order[slot] = order[slot - 1]
                    slot -= 1
                }
                order[slot] = index
                count += 1
                members.formIndex(after: &index)
            }
            for position in 0..<count {
                if position > 0 { buffer.append(UInt8(ascii: ",")) }
                let (key, member) = members[order[position]]
                writeMember(key, member, into: &buffer)
            }
        }
    }

    private static func writeMember(_ key: String, _ member: JSONValue, into buffer: inout ByteBuffer) {
        writeString(key, into: &buffer)
        buffer.append(UInt8(ascii: ":"))
        write(member, into: &buffer)
    }

    /// UTF-8 byte order (code point order). Keys are short and mostly differ in their first
    /// byte: a byte loop, not `lexicographicallyPrecedes` (generic) or `memcmp` (a call).
    static func keyPrecedes(_ a: String, _ b: String) -> Bool {
        var x = a.utf8.makeIterator(), y = b.utf8.makeIterator()
        while true {
            switch (x.next(), y.next()) {
            case let (p?, q?): if p != q { return p < q }
            case (nil, .some): return true
            case (_, nil): return false
            }
        }
    }

    /// `value` as compact JSON bytes (allocates; for tests, logs and cold paths).
    public static func bytes(_ value: JSONValue) -> [UInt8] {
        var buffer = ByteBuffer(capacity: 64)
        write(value, into: &buffer)
        return buffer.bytes
    }

    /// `value` as compact JSON text (allocates; for tests, logs and cold paths).
    public static func string(_ value: JSONValue) -> String {
        String(decoding: bytes(value), as: UTF8.self)
    }

    // MARK: Primitives

    @inlinable
    public static func writeNull(into buffer: inout ByteBuffer) {
        buffer.append("null")
    }

    @inlinable
    public static func writeBool(_ value: Bool, into buffer: inout ByteBuffer) {
        if value { buffer.append("true") } else { buffer.append("false") }
    }

    /// Writes an integer in decimal, without allocating.
    @inlinable
    public static func writeInt(_ value: Int, into buffer: inout ByteBuffer) {
        if value >= 0 && value < 10 {
            buffer.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value))
            return
        }
        buffer.appendScratch(maximumCount: ScratchWriter.maximumNumberBytes) { $0.int(value) }
    }

    /// Writes a number: integral values below 1e16 in magnitude as plain integers (exact, as
    /// each is below 2^63), other finite values in shortest round-trip form, NaN and
    /// infinities as `null` (JSON cannot express them), counted so the buffer is refused.
    @inlinable
    public static func writeNumber(_ value: Double, into buffer: inout ByteBuffer) {
        guard value.isFinite else {
            buffer.noteNonFiniteNumber()
            writeNull(into: &buffer)
            return
        }
        if value.magnitude < 1e16 && value == value.rounded(.towardZero) {
            if value == 0 && value.sign == .minus {
                buffer.append("-0")
            } else {
                writeInt(Int(value), into: &buffer)
            }
            return
        }
        writeNonIntegral(value, into: &buffer)
    }

    /// Writes `value` rounded to `places` decimal places (0…9) without trailing zeros
    /// (`ScratchWriter.rounded`): geometry, alpha and transforms on the wire.
    @inlinable
    public static func writeRounded(_ value: Double, places: Int, into buffer: inout ByteBuffer) {
        buffer.appendScratch(maximumCount: ScratchWriter.maximumNumberBytes) { $0.rounded(value, places: places) }
    }

    /// Shortest round-trip text from the standard library, which is valid JSON. It ends in
    /// ".0" only for integral values, which `writeNumber` handles below 1e16; the check keeps
    /// "no .0 on integers" true should the standard library's format change.
    @usableFromInline
    static func writeNonIntegral(_ value: Double, into buffer: inout ByteBuffer) {
        buffer.append(utf8: value.description)
        let count = buffer.storage.count
        if count >= 2 && buffer.storage[count - 2] == UInt8(ascii: ".") && buffer.storage[count - 1] == UInt8(ascii: "0") {
            buffer.storage.removeLast(2)
        }
    }

    /// Writes a quoted, escaped string.
    @inlinable
    public static func writeString(_ value: String, into buffer: inout ByteBuffer) {
        var value = value
        value.withUTF8 { writeString(utf8: $0, into: &buffer) }
    }

    /// Writes a quoted, escaped string from a compile-time constant (keys, enum names).
    @inlinable
    public static func writeString(_ value: StaticString, into buffer: inout ByteBuffer) {
        value.withUTF8Buffer { writeString(utf8: $0, into: &buffer) }
    }

    /// Writes a quoted, escaped string from bytes that are already valid UTF-8.
    @inlinable
    public static func writeString(utf8 bytes: UnsafeBufferPointer<UInt8>, into buffer: inout ByteBuffer) {
        // Array.reserveCapacity allocates exactly what it is asked for: asked per string, a full
        // buffer was copied at every string (a fifth of writing a 20,000-item journal line went to
        // memmove, perf). Growing by doubling, as append does, copies each byte once on average.
        let needed = buffer.storage.count + bytes.count + 2
        if needed > buffer.storage.capacity { buffer.storage.reserveCapacity(max(needed, buffer.storage.capacity * 2)) }
        buffer.append(UInt8(ascii: "\""))
        var runStart = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
                index += 1
                continue
            }
            if index > runStart { buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index])) }
            writeEscape(byte, into: &buffer)
            index += 1
            runStart = index
        }
        if index > runStart { buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index])) }
        buffer.append(UInt8(ascii: "\""))
    }

    /// The escape for a byte that may not appear raw in a JSON string.
    @usableFromInline
    static func writeEscape(_ byte: UInt8, into buffer: inout ByteBuffer) {
        buffer.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""): buffer.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): buffer.append(UInt8(ascii: "\\"))
        case 0x0A: buffer.append(UInt8(ascii: "n"))
        case 0x0D: buffer.append(UInt8(ascii: "r"))
        case 0x09: buffer.append(UInt8(ascii: "t"))
        case 0x08: buffer.append(UInt8(ascii: "b"))
        case 0x0C: buffer.append(UInt8(ascii: "f"))
        default:
            let digits: StaticString = "0123456789abcdef"
            buffer.append("u00")
            buffer.append(digits.utf8Start[Int(byte >> 4)])
            buffer.append(digits.utf8Start[Int(byte & 0x0F)])
        }
    }
}

/// Writes one JSON object member by member, inserting the commas:
///
///     var object = JSONObjectWriter(into: &buffer)          // {
///     object.key("id", into: &buffer)                        // "id":
///     JSONWriter.writeInt(7, into: &buffer)                  // 7
///     object.field("name", "cell", into: &buffer)            // ,"name":"cell"
///     object.end(into: &buffer)                              // }
///
/// The buffer is passed to each call rather than held, so the caller keeps exclusive access.
public struct JSONObjectWriter: Sendable {
    @usableFromInline
    var isEmpty = true

    /// Writes `{`.
    @inlinable
    public init(into buffer: inout ByteBuffer) {
        buffer.append(UInt8(ascii: "{"))
    }

    /// Writes a comma if needed, then `"key":`; the caller writes the value next.
    @inlinable
    public mutating func key(_ key: String, into buffer: inout ByteBuffer) {
        separate(&buffer)
        JSONWriter.writeString(key, into: &buffer)
        buffer.append(UInt8(ascii: ":"))
    }

    /// Writes a comma if needed, then `"key":` for a constant key, as it is: the keys of this
    /// code are ASCII names that need no escaping, and every reply and frame writes dozens.
    @inlinable
    public mutating func key(_ key: StaticString, into buffer: inout ByteBuffer) {
        separate(&buffer)
        buffer.append(UInt8(ascii: "\""))
        buffer.append(key)
        buffer.append("\":")
    }

    /// Writes a constant string field as it is (an ASCII constant that needs no escaping).
    @inlinable
    public mutating func field(_ key: StaticString, verbatim value: StaticString, into buffer: inout ByteBuffer) {
        self.key(key, into: &buffer)
        buffer.append(UInt8(ascii: "\""))
        buffer.append(value)
        buffer.append(UInt8(ascii: "\""))
    }

    @inlinable
    mutating func separate(_ buffer: inout ByteBuffer) {
        if isEmpty { isEmpty = false } else { buffer.append(UInt8(ascii: ",")) }
    }

    @inlinable
    public mutating func field(_ key: StaticString, _ value: Double, into buffer: inout ByteBuffer) {
        self.key(key, into: &buffer)
        JSONWriter.writeNumber(value, into: &buffer)
    }

    @inlinable
    public mutating func field(_ key: StaticString, _ value: Int, into buffer: inout ByteBuffer) {
        self.key(key, into: &buffer)
        JSONWriter.writeInt(value, into: &buffer)
    }

    @inlinable
    public mutating func field(_ key: StaticString, _ value: Bool, into buffer: inout ByteBuffer) {
        self.key(key, into: &buffer)
        JSONWriter.writeBool(value, into: &buffer)
    }

    @inlinable
    public mutating func field(_ key: StaticString, _ value: String, into buffer: inout ByteBuffer) {
        self.key(key, into: &buffer)
        JSONWriter.writeString(value, into: &buffer)
    }

    public mutating func field(_ key: StaticString, _ value: JSONValue, into buffer: inout ByteBuffer) {
        self.key(key, into: &buffer)
        JSONWriter.write(value, into: &buffer)
    }

    /// Writes `}`.
    @inlinable
    public func end(into buffer: inout ByteBuffer) {
        buffer.append(UInt8(ascii: "}"))
    }
}

/// Writes one JSON array element by element, inserting the commas: call `element(into:)`
/// before writing each element, then `end(into:)`.
public struct JSONArrayWriter: Sendable {
    @usableFromInline
    var isEmpty = true

    /// Writes `[`.
    @inlinable
    public init(into buffer: inout ByteBuffer) {
        buffer.append(UInt8(ascii: "["))
    }

    /// Writes the comma before every element but the first.
    @inlinable
    public mutating func element(into buffer: inout ByteBuffer) {
        if isEmpty { isEmpty = false } else { buffer.append(UInt8(ascii: ",")) }
    }

    /// Writes `]`.
    @inlinable
    public func end(into buffer: inout ByteBuffer) {
        buffer.append(UInt8(ascii: "]"))
    }
}
