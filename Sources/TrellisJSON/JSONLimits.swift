/// Bounds the parser enforces so that no message, however deep or large, can crash the server
/// (stack overflow, runaway recursion when the value is later freed) or make it allocate far
/// more than the message itself.
///
/// The total size of a message is bounded before parsing, by `LineFramer`.
public struct JSONLimits: Hashable, Sendable {
    /// The deepest nesting of arrays and objects allowed; `[[1]]` has depth 2, a bare scalar 0.
    public var maximumDepth: Int
    /// The longest string (object keys included) allowed, in bytes of decoded UTF-8.
    public var maximumStringBytes: Int
    /// The most elements one array, or members one object, may have (duplicate keys count).
    public var maximumElements: Int

    public init(maximumDepth: Int = 64, maximumStringBytes: Int = 1 << 20, maximumElements: Int = 1 << 20) {
        self.maximumDepth = maximumDepth
        self.maximumStringBytes = maximumStringBytes
        self.maximumElements = maximumElements
    }

    /// Depth 64, strings up to 1 MiB, containers up to 1,048,576 elements.
    public static let `default` = JSONLimits()
}
