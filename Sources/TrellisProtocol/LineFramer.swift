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
        if let frames = bytes.withContiguousStorageIfAvailable({ append(UnsafeRawBufferPointer($0)) }) {
            return frames
        }
        return Array(bytes).withUnsafeBytes { append($0) }
    }

    /// The same on raw bytes, a line's run at a time rather than a byte at a time (this is on
    /// every request's path: a pipeline of 64 requests is one call).
    public mutating func append(_ bytes: UnsafeRawBufferPointer) -> [Frame] {
        var frames: [Frame] = []
        var start = 0
        while start < bytes.count {
            let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n"))
            let end = newline ?? bytes.count
            if discarding {
                skipped += end - start
            } else if end > start {
                buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
                // One extra byte is allowed for a trailing "\r". A read is at most 64 KB, so the
                // buffer never holds more than the limit plus one read before it is dropped.
                if buffer.count > maximumMessageBytes + 1 {
                    discarding = true
                    skipped = buffer.count
                    buffer.removeAll(keepingCapacity: false)
                }
            }
            guard let newline else { break }
            endLine(into: &frames)
            start = newline + 1
        }
        return frames
    }

    /// At a line end: the line is a message, an oversized line, or empty (skipped).
    private mutating func endLine(into frames: inout [Frame]) {
        if discarding {
            frames.append(.oversized(byteCount: skipped))
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
    }
}

/// Limits every peer of the protocol agrees on.
public enum ProtocolLimits {
    /// The most bytes of one message a server reads unless started with another
    /// `--max-message-bytes` (its `hello` reports the one it uses).
    public static let defaultMaximumMessageBytes = 1 << 20
}
