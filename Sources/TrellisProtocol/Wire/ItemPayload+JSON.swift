import TrellisCore

extension ItemPayload {
    /// The payload of a JSON value: its compact text with object keys sorted (`JSONWriter`), so
    /// payloads of equal values compare equal and frames append the bytes as they are.
    ///
    /// Payloads come from parsed JSON, which holds no NaN or infinity. One built in code with
    /// them would be written as `null` and no longer refused where it is sent: a bug, so it traps.
    public init(_ value: JSONValue) {
        var buffer = ByteBuffer(capacity: 32)
        JSONWriter.write(value, into: &buffer)
        precondition(!buffer.holdsNonFiniteNumber, "an item payload holds a NaN or an infinity")
        self.init(bytes: buffer.bytes)
    }

    /// The payload read back as a JSON value (parses; for viewers and cold paths). Bytes that are
    /// not JSON, which the protocol never writes, read as `null`.
    public var json: JSONValue {
        (try? JSONParser.parse(bytes)) ?? .null
    }

    /// Appends the payload's JSON text to `buffer` as it is: no parse, no re-encoding.
    @inlinable
    public func write(into buffer: inout ByteBuffer) {
        bytes.withUnsafeBufferPointer { buffer.append(contentsOf: $0) }
    }
}
