/// A growable byte buffer that JSON and frames are written into.
///
/// The protocol's JSON codec is hand-written rather than built on Foundation because
/// Foundation's JSON was measured at about 1 ms per 4 KB message on the target machine
/// (see shared/reference/measured-here.md), most of a frame budget. Keep one buffer per
/// connection and `clear(keepingCapacity: true)` it between messages: after the first few
/// messages it has grown to the working size and encoding allocates nothing.
public struct ByteBuffer: Hashable, Sendable {
    /// The bytes; `@usableFromInline` so the writers inline into callers in other modules.
    @usableFromInline
    internal var storage: [UInt8]
    /// How many NaNs and infinities were written (as `null`). JSON cannot carry them and the
    /// engine validates what enters, so one here is a bug: whoever sends or stores the buffer
    /// checks `holdsNonFiniteNumber` and refuses it rather than let `null` stand for a number.
    @usableFromInline
    internal var nonFiniteNumbers = 0

    /// An empty buffer with room for `capacity` bytes before it reallocates.
    @inlinable
    public init(capacity: Int = 0) {
        storage = []
        if capacity > 0 { storage.reserveCapacity(capacity) }
    }

    /// A buffer holding a copy of `bytes`.
    @inlinable
    public init(_ bytes: [UInt8]) {
        storage = bytes
    }

    /// The bytes written so far.
    @inlinable
    public var bytes: [UInt8] { storage }

    /// The number of bytes written so far.
    @inlinable
    public var count: Int { storage.count }

    /// Whether a NaN or an infinity was written into the buffer (see `nonFiniteNumbers`).
    @inlinable
    public var holdsNonFiniteNumber: Bool { nonFiniteNumbers > 0 }

    /// Notes that a non-finite number was written (by the JSON writer).
    @inlinable
    public mutating func noteNonFiniteNumber() {
        nonFiniteNumbers &+= 1
    }

    @inlinable
    public var isEmpty: Bool { storage.isEmpty }

    /// The number of bytes the buffer can hold without reallocating.
    @inlinable
    public var capacity: Int { storage.capacity }

    /// Makes room for at least `minimumCapacity` bytes in total.
    @inlinable
    public mutating func reserveCapacity(_ minimumCapacity: Int) {
        storage.reserveCapacity(minimumCapacity)
    }

    /// Appends one byte.
    @inlinable
    public mutating func append(_ byte: UInt8) {
        storage.append(byte)
    }

    /// Appends raw bytes.
    @inlinable
    public mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        storage.append(contentsOf: bytes)
    }

    /// Appends raw bytes.
    @inlinable
    public mutating func append(contentsOf bytes: UnsafeRawBufferPointer) {
        storage.append(contentsOf: bytes)
    }

    /// Appends another buffer's bytes, and what it holds of non-finite numbers.
    @inlinable
    public mutating func append(_ other: ByteBuffer) {
        storage.append(contentsOf: other.storage)
        nonFiniteNumbers &+= other.nonFiniteNumbers
    }

    /// Appends any sequence of bytes.
    @inlinable
    public mutating func append(contentsOf bytes: some Sequence<UInt8>) {
        storage.append(contentsOf: bytes)
    }

    /// Appends the bytes of a compile-time string as they are, without JSON escaping; meant for
    /// ASCII punctuation and keys known not to need escaping.
    @inlinable
    public mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { storage.append(contentsOf: $0) }
    }

    /// Appends the UTF-8 bytes of `text` as they are, without JSON escaping.
    @inlinable
    public mutating func append(utf8 text: String) {
        storage.append(contentsOf: text.utf8)
    }

    /// Forgets the contents. Keeping the capacity (the default) is what makes a reused buffer
    /// allocation-free.
    @inlinable
    public mutating func clear(keepingCapacity: Bool = true) {
        storage.removeAll(keepingCapacity: keepingCapacity)
        nonFiniteNumbers = 0
    }

    /// Where the buffer stands (its length and its count of non-finite numbers), for taking back
    /// a message written after it (`rewind(to:)`), as a reply found to hold a NaN is.
    public struct Mark: Sendable {
        @usableFromInline let count: Int
        @usableFromInline let nonFiniteNumbers: Int
        @inlinable init(count: Int, nonFiniteNumbers: Int) {
            self.count = count
            self.nonFiniteNumbers = nonFiniteNumbers
        }
    }

    /// The buffer's position now.
    @inlinable
    public var mark: Mark { Mark(count: storage.count, nonFiniteNumbers: nonFiniteNumbers) }

    /// Whether a NaN or an infinity was written since `mark`.
    @inlinable
    public func holdsNonFiniteNumber(since mark: Mark) -> Bool { nonFiniteNumbers > mark.nonFiniteNumbers }

    /// The bytes written since `mark` (a copy; for logs).
    public func bytes(since mark: Mark) -> [UInt8] { Array(storage[min(mark.count, storage.count)...]) }

    /// Drops what was written since `mark`.
    @inlinable
    public mutating func rewind(to mark: Mark) {
        if mark.count < storage.count { storage.removeSubrange(mark.count...) }
        nonFiniteNumbers = mark.nonFiniteNumbers
    }

    /// Calls `body` with the bytes, e.g. to hand them to a socket write.
    @inlinable
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        // Array.withUnsafeBytes is rethrows; carry the typed error through a Result.
        let result: Result<R, E> = storage.withUnsafeBytes { raw in
            do throws(E) { return .success(try body(raw)) } catch { return .failure(error) }
        }
        return try result.get()
    }
}

extension ByteBuffer: CustomStringConvertible {
    /// The bytes as UTF-8 text (invalid sequences replaced), for logs and tests.
    public var description: String { String(decoding: storage, as: UTF8.self) }
}
