/// The pool of unbound views, one bounded LIFO stack per reuse identifier (as UIKit's reuse
/// queues, bounded like RecyclerView's RecycledViewPool: 5 per type by default). Views have
/// stable integer ids; a view that finds its pool full is destroyed.
public struct ReusePool: Hashable, Sendable {
    /// The default bound per reuse identifier (RecyclerView's DEFAULT_MAX_SCRAP).
    public static let defaultLimit = 5

    /// Views kept per reuse identifier; `limits` overrides it per identifier.
    public var defaultLimitPerIdentifier: Int
    public var limits: [String: Int] = [:]
    private var stacks: [String: [ViewID]] = [:]
    private var nextViewID = 1
    /// Created, reused and destroyed counts per reuse identifier.
    public private(set) var counters: [String: ReuseCounters] = [:]

    public init(limitPerIdentifier: Int = ReusePool.defaultLimit) {
        defaultLimitPerIdentifier = limitPerIdentifier
    }

    /// The bound for one reuse identifier.
    public func limit(for reuseIdentifier: String) -> Int { limits[reuseIdentifier] ?? defaultLimitPerIdentifier }

    /// Views waiting in the pool of `reuseIdentifier`.
    public func pooledCount(_ reuseIdentifier: String) -> Int { stacks[reuseIdentifier]?.count ?? 0 }

    /// The ids waiting in each pool, most recently pooled last.
    public var pooled: [String: [ViewID]] { stacks.filter { !$0.value.isEmpty } }

    /// Every pooled view id.
    public var pooledViewIDs: Set<ViewID> { Set(stacks.values.joined()) }

    /// A view for `reuseIdentifier`: the most recently pooled one, or a new one.
    public mutating func dequeue(_ reuseIdentifier: String) -> (view: ViewID, reused: Bool) {
        if let view = stacks[reuseIdentifier]?.popLast() {
            counters[reuseIdentifier, default: ReuseCounters()].reused += 1
            return (view, true)
        }
        let view = ViewID(nextViewID)
        nextViewID += 1
        counters[reuseIdentifier, default: ReuseCounters()].created += 1
        return (view, false)
    }

    /// Returns an unbound view to its pool; false when the pool was full and the view was destroyed.
    @discardableResult
    public mutating func enqueue(_ view: ViewID, reuseIdentifier: String) -> Bool {
        if pooledCount(reuseIdentifier) >= limit(for: reuseIdentifier) {
            counters[reuseIdentifier, default: ReuseCounters()].destroyed += 1
            return false
        }
        stacks[reuseIdentifier, default: []].append(view)
        return true
    }
}

/// How one reuse identifier's views were made: created new, reused from the pool, destroyed.
public struct ReuseCounters: Hashable, Sendable {
    public var created = 0
    public var reused = 0
    public var destroyed = 0
    public init() {}
}
