/// The animator's items by id, as one contiguous array with an index.
public struct DynamicBodies: Sendable {
    public var bodies: [DynamicBody] { storage }
    var storage: [DynamicBody] = []
    public private(set) var ids: [DynamicItemID] = []
    private var indexByID: [DynamicItemID: Int] = [:]

    public init() {}

    public var count: Int { storage.count }

    public func index(of id: DynamicItemID) -> Int? { indexByID[id] }

    public subscript(id: DynamicItemID) -> DynamicBody? {
        get { indexByID[id].map { storage[$0] } }
    }

    /// The body at `index` (solver and behaviours address bodies by index).
    public subscript(index index: Int) -> DynamicBody {
        get { storage[index] }
        _modify { yield &storage[index] }
    }

    mutating func insert(_ body: DynamicBody, for id: DynamicItemID) {
        if let index = indexByID[id] {
            storage[index] = body
        } else {
            indexByID[id] = storage.count
            storage.append(body)
            ids.append(id)
        }
    }

    mutating func remove(_ id: DynamicItemID) {
        guard let index = indexByID.removeValue(forKey: id) else { return }
        storage.remove(at: index)
        ids.remove(at: index)
        for k in index..<ids.count { indexByID[ids[k]] = k }
    }

    /// Calls `body` with each body in id order of insertion, for changes.
    mutating func forEach(_ body: (inout DynamicBody) -> Void) {
        for k in storage.indices { body(&storage[k]) }
    }
}

extension DynamicBodies {
    /// The bodies as one array for the solver (indices as `index(of:)` gives them).
    mutating func withBodyArray(_ body: (inout [DynamicBody]) -> Void) {
        var all = [DynamicBody]()
        swap(&all, &storage)
        body(&all)
        swap(&all, &storage)
    }
}
