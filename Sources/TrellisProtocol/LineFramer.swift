#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
    /// The bytes the framer keeps allocated for lines that span reads.
    public var bufferCapacity: Int { buffer.capacity }

    /// A completed frame as `forEachFrame` reports it: a message's bytes are valid only
    /// during the call (they point into the caller's bytes, or into the framer's buffer).
    public enum FrameView {
        case message(UnsafeRawBufferPointer)
        case oversized(byteCount: Int)

        /// The frame, with the message copied out.
        public var frame: Frame {
            switch self {
            case .message(let bytes): return .message(Array(bytes))
            case .oversized(let count): return .oversized(byteCount: count)
            }
        }
    }

    /// Feeds received bytes; returns the frames they complete, in order. Empty lines are skipped.
    public mutating func append<Bytes: Collection>(_ bytes: Bytes) -> [Frame] where Bytes.Element == UInt8 {
        if let frames = bytes.withContiguousStorageIfAvailable({ append(UnsafeRawBufferPointer($0)) }) {
            return frames
        }
        return Array(bytes).withUnsafeBytes { append($0) }
    }

    /// The same on raw bytes.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) -> [Frame] {
        var frames: [Frame] = []
        forEachFrame(in: bytes) { frames.append($0.frame) }
        return frames
    }

    /// Feeds received bytes and calls `body` with each frame they complete, in order, without
    /// copying a line that begins and ends in `bytes` (the common case: a read holds whole
    /// requests). Lines are found a run at a time, not a byte at a time: this is on every
    /// request's path, and a pipeline of 64 requests is one call.
    public mutating func forEachFrame(in bytes: UnsafeRawBufferPointer, _ body: (FrameView) -> Void) {
        guard let base = bytes.baseAddress else { return }
        var start = 0
        while start < bytes.count {
            // memchr, not firstIndex(of:): frames of a busy scene are tens of KB a line, and
            // a byte-at-a-time search was a quarter of trellis-web's CPU (perf, web.fanout).
            let newline = memchr(base + start, Int32(UInt8(ascii: "\n")), bytes.count - start)
                .map { UnsafeRawPointer($0) - base }
            let end = newline ?? bytes.count
            if let newline, !discarding, buffer.isEmpty {
                // The whole line is here: hand it over in place.
                var line = UnsafeRawBufferPointer(rebasing: bytes[start..<newline])
                if line.last == UInt8(ascii: "\r") { line = UnsafeRawBufferPointer(rebasing: line.dropLast()) }
                if line.count > maximumMessageBytes {
                    body(.oversized(byteCount: line.count))
                } else if !line.isEmpty {
                    body(.message(line))
                }
                start = newline + 1
                continue
            }
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
            endLine(body)
            start = newline + 1
        }
    }

    /// At the end of a line that was collected in the buffer: a message, an oversized line,
    /// or empty (skipped).
    private mutating func endLine(_ body: (FrameView) -> Void) {
        if discarding {
            body(.oversized(byteCount: skipped))
            discarding = false
            skipped = 0
        } else {
            if buffer.last == UInt8(ascii: "\r") { buffer.removeLast() }
            if buffer.count > maximumMessageBytes {
                body(.oversized(byteCount: buffer.count))
            } else if !buffer.isEmpty {
                buffer.withUnsafeBytes { body(.message($0)) }
            }
        }
        // A big line's buffer is given back, not kept at its peak for the connection's life
        // (a chunked reload's requests are a megabyte each); small ones are reused.
        buffer.removeAll(keepingCapacity: buffer.capacity <= Self.retainedCapacity)
    }

    /// The most buffer capacity kept between lines: frames of a busy scene are tens of KB.
    public static let retainedCapacity = 256 << 10
}

/// Limits every peer of the protocol agrees on.
public enum ProtocolLimits {
    /// The most bytes of one message a server reads unless started with another
    /// `--max-message-bytes` (its `hello` reports the one it uses).
    public static let defaultMaximumMessageBytes = 1 << 20
    /// The most `--max-message-bytes` may raise it to: a line is read whole into memory, and a
    /// request's strings and payloads are copied a few times on their way in.
    public static let largestMaximumMessageBytes = 1 << 30
}
