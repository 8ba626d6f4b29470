import TrellisCore
import TrellisProtocol

/// Requests answered straight from their bytes: the envelope scanned (`RequestEnvelope`), the
/// reply written into the connection's output with the id's bytes echoed, and no params tree,
/// method context or result buffer in between. Only a method whose answer needs nothing of its
/// params qualifies, and only in the forms the method table would answer the same way (the
/// tests compare both paths byte for byte); anything else goes the general way.
/// `hello` is every client's first call and the RPC benchmark's request.
extension Server {
    /// Answers `envelope`'s request if it is one of the direct forms; true when it was.
    func answerDirectly(_ envelope: RequestEnvelope, in bytes: UnsafeRawBufferPointer, client: Client,
                        connection: Connection) -> Bool {
        guard Self.isHello(UnsafeRawBufferPointer(rebasing: bytes[envelope.method])),
              envelope.params.map({ Self.isEmptyObject(UnsafeRawBufferPointer(rebasing: bytes[$0])) }) ?? true else {
            return false
        }
        if envelope.id != .none {
            let limit = configuration.maximumMessageBytes
            // A hello's reply holds no number that could be non-finite: nothing to refuse.
            _ = writeMessage(to: connection) { output in
                output.append(#"{"jsonrpc":"2.0","id":"#)
                Self.writeID(envelope.id, of: bytes, into: &output)
                output.append(#","result":"#)
                ServerMethods.writeHello(maximumMessageBytes: limit, into: &output)
                output.append("}\n")
            }
        }
        finishRequest(touched: nil, client: client)
        return true
    }

    /// The id as the general path writes it (`JSONWriter` on the parsed value): the scanner
    /// only passes integers of at most 15 digits (written back digit for digit) and strings of
    /// printable ASCII without quotes or backslashes (written back as they are).
    static func writeID(_ id: RequestEnvelope.ID, of bytes: UnsafeRawBufferPointer, into output: inout ByteBuffer) {
        switch id {
        case .none: JSONWriter.writeNull(into: &output)
        case .integer(let value): JSONWriter.writeInt(value, into: &output)
        case .string(let range):
            output.append(UInt8(ascii: "\""))
            output.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[range]))
            output.append(UInt8(ascii: "\""))
        }
    }

    private static func isHello(_ name: UnsafeRawBufferPointer) -> Bool {
        name.count == 5 && name[0] == UInt8(ascii: "h") && name[1] == UInt8(ascii: "e") && name[2] == UInt8(ascii: "l")
            && name[3] == UInt8(ascii: "l") && name[4] == UInt8(ascii: "o")
    }

    /// `{}`, with any JSON whitespace inside.
    private static func isEmptyObject(_ object: UnsafeRawBufferPointer) -> Bool {
        guard object.count >= 2, object.first == UInt8(ascii: "{"), object.last == UInt8(ascii: "}") else { return false }
        for byte in object.dropFirst().dropLast() {
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D: continue
            default: return false
            }
        }
        return true
    }
}
