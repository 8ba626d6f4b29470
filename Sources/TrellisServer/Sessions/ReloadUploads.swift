/// Every chunked reload being staged on the server (`ReloadUpload`), at most one per client,
/// and the limits that bound them all together: a greedy or forgetful client cannot grow the
/// server's memory without bound. An upload ends at its commit or abort, at the first chunk
/// that is refused (nothing of it is kept), or when its client's connection closes.
struct ReloadUploads {
    /// The most items staged in all pending uploads together (`--max-upload-items`).
    var maximumItems: Int
    /// The most bytes (estimated as `ReloadUpload.estimatedBytes`) staged in all pending uploads
    /// together (`--max-upload-bytes`).
    var maximumBytes: Int
    private(set) var byClient: [ObjectIdentifier: ReloadUpload] = [:]
    private var nextNumber = 1

    init(maximumItems: Int, maximumBytes: Int) {
        self.maximumItems = maximumItems
        self.maximumBytes = maximumBytes
    }

    /// Items and bytes staged in all pending uploads.
    var stagedItems: Int { byClient.values.reduce(0) { $0 + $1.itemCount } }
    var stagedBytes: Int { byClient.values.reduce(0) { $0 + $1.stagedBytes } }

    /// A fresh token: numbers are never reused, so a stale token never names a newer upload.
    mutating func makeToken() -> String {
        defer { nextNumber += 1 }
        return "u\(nextNumber)"
    }

    subscript(client: ObjectIdentifier) -> ReloadUpload? {
        get { byClient[client] }
        set { byClient[client] = newValue }
    }

    /// Forgets `client`'s upload (its connection closed), freeing what it staged.
    @discardableResult
    mutating func drop(_ client: ObjectIdentifier) -> ReloadUpload? {
        byClient.removeValue(forKey: client)
    }
}
