/// Splits a byte stream into NDJSON messages (one per line, "\n" or "\r\n"), refusing any line
/// longer than a limit so that no input can grow memory without bound.
public struct LineFramer: Sendable {
    /// The longest message accepted, in bytes, not counting the line end.
    public let maximumMessageBytes: Int
    private var buffer: [UInt8] = []
    /// True while the rest of an oversized line is being skipped.
    private var discarding = false
    /// Bytes of the oversized line skipped so far.
    private var skipped = 0

    public init(maximumMessageBytes: Int) {
        precondition(maximumMessageBytes > 0)
        self.maximumMessageBytes = maximumMessageBytes
    }

    /// One framing result: a whole message, or a message that was too long and was dropped.
    public enum Frame: Equatable, Sendable {
        case message([UInt8])
        case oversized(byteCount: Int)
    }

    /// Bytes received but not yet ending a line.
    public var pendingByteCount: Int { buffer.count }

    /// Feeds received bytes; returns the frames they complete, in order. Empty lines are skipped.
    public mutating func append<Bytes: Collection>(_ bytes: Bytes) -> [Frame] where Bytes.Element == UInt8 {
        var frames: [Frame] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if discarding {
                    frames.append(.oversized(byteCount: skipped + buffer.count))
                    discarding = false
                    skipped = 0
                } else {
                    if buffer.last == UInt8(ascii: "\r") { buffer.removeLast() }
                    if buffer.count > maximumMessageBytes {
                        frames.append(.oversized(byteCount: buffer.count))
                    } else if !buffer.isEmpty {
                        frames.append(.message(buffer))
                    }
                }
                buffer.removeAll(keepingCapacity: true)
                continue
            }
            if discarding { skipped += 1; continue }
            buffer.append(byte)
            // One extra byte is allowed for a trailing "\r".
            if buffer.count > maximumMessageBytes + 1 {
                discarding = true
                skipped = buffer.count
                buffer.removeAll(keepingCapacity: false)
            }
        }
        return frames
    }
}
