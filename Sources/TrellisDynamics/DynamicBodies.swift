/// The animator's items by id, as one contiguous array with an index.
public struct DynamicBodies: Sendable {
    public var bodies: [DynamicBody] { storage }
    var storage: [DynamicBody] = []
    /// What the behaviours gathered for each body this (sub-)step in closed forms (`LinearForces`),
    /// beside `storage`; cleared by the step.
    var linear: [LinearForces] = []
    /// Each body's stepping velocity's offset while springs between items step it (`SteppedKick`),
    /// beside `storage`, carried from step to step.
    var kicks: [SteppedKick] = []
    public private(set) var ids: [DynamicItemID] = []
    private var index = ItemIndex()

    public init() {}

    public var count: Int { storage.count }

    public func index(of id: DynamicItemID) -> Int? { index.find(id, in: ids) }

    public subscript(id: DynamicItemID) -> DynamicBody? {
        get { index(of: id).map { storage[$0] } }
    }

    /// The body at `index` (solver and behaviours address bodies by index).
    public subscript(index index: Int) -> DynamicBody {
        get { storage[index] }
        _modify { yield &storage[index] }
    }

    mutating func insert(_ body: DynamicBody, for id: DynamicItemID) {
        if let k = index(of: id) {
            storage[k] = body
            kicks[k] = .none
        } else {
            storage.append(body)
            linear.append(LinearForces())
            kicks.append(.none)
            ids.append(id)
            index.insert(ids.count - 1, of: ids)
        }
    }

    mutating func remove(_ id: DynamicItemID) {
        guard let k = index(of: id) else { return }
        storage.remove(at: k)
        linear.remove(at: k)
        kicks.remove(at: k)
        ids.remove(at: k)
        index.rebuild(ids)
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

    /// The bodies, what acts on them in closed forms and their stepping velocities' offsets, as
    /// arrays for the step.
    mutating func withBodyArrays(_ body: (inout [DynamicBody], inout [LinearForces], inout [SteppedKick]) -> Void) {
        var all = [DynamicBody](), forces = [LinearForces](), offsets = [SteppedKick]()
        swap(&all, &storage)
        swap(&forces, &linear)
        swap(&offsets, &kicks)
        body(&all, &forces, &offsets)
        swap(&all, &storage)
        swap(&forces, &linear)
        swap(&offsets, &kicks)
    }
}

/// Where each id is in `ids`: an open-addressing table (linear probing, a power-of-two size at
/// most half full) of positions, the id hashed by one multiplication (Fibonacci hashing).
/// Behaviours look their items up every step, and Dictionary's seeded hash made that a fifth of
/// a step of 10,000 springs; this one is a few nanoseconds and the same on every run.
private struct ItemIndex: Sendable {
    /// Positions in `ids`, -1 for an empty slot.
    private var slots: [Int] = []
    private var shift = 64
    private var count = 0

    private func home(_ id: DynamicItemID) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: Int64(id.rawValue)) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(shift))
    }

    func find(_ id: DynamicItemID, in ids: [DynamicItemID]) -> Int? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        var slot = home(id)
        while true {
            let position = slots[slot]
            if position < 0 { return nil }
            if ids[position] == id { return position }
            slot = (slot + 1) & mask
        }
    }

    /// Adds `ids[position]` (not already there).
    mutating func insert(_ position: Int, of ids: [DynamicItemID]) {
        if 2 * (count + 1) > slots.count {
            rebuild(ids, capacity: max(16, 2 * slots.count))
            return
        }
        place(position, ids[position])
    }

    /// Indexes `ids` afresh (after a removal moved the positions after it).
    mutating func rebuild(_ ids: [DynamicItemID], capacity: Int? = nil) {
        var size = capacity ?? 16
        while size < 2 * ids.count { size *= 2 }
        slots = Array(repeating: -1, count: size)
        shift = 64 - size.trailingZeroBitCount
        count = 0
        for (position, id) in ids.enumerated() { place(position, id) }
    }

    private mutating func place(_ position: Int, _ id: DynamicItemID) {
        let mask = slots.count - 1
        var slot = home(id)
        while slots[slot] >= 0 { slot = (slot + 1) & mask }
        slots[slot] = position
        count += 1
    }
}
