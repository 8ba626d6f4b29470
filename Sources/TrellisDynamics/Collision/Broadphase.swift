/// Which items may touch, without testing every pair: sort and sweep (Baraff) over the items'
/// bounding boxes, fattened by the distance at which the narrow phase still reports a contact.
///
/// Chosen over a uniform grid because items may be of any size (a grid's cell suits one size)
/// and it needs no tuning; it sweeps along the axis on which the centres spread most, so a
/// wide pile (many items side by side) and a tall stack both sweep across few neighbours.
/// Measured on the 1,000-item pile (`dynamics.pile.1k`, release): the sort, sweep and pair
/// ordering take about 0.6 ms a step, where testing all 500,000 pairs took about 37 ms.
/// Deterministic: ties sort by index, and the pairs come out ordered by first then second
/// index, exactly as the all-pairs loop met them, so contacts keep their order between steps.
///
/// **Crowds.** Items spawned on top of each other make every pair overlap: a million pairs for
/// 1,500 items at one point, seconds of contacts per step, and as they spread out each still
/// overlaps hundreds of others for a while. A pair is *deep* when the two items' inscribed
/// circles reach a tenth into each other; an item's inscribed circle lies inside it whatever its
/// angle, so items resting on each other (within the 0.5 pt slop) never are, and no item of a
/// pile has a deep pair. An item with more than `crowdLimit` deep pairs with items of about its
/// size is *crowded*: it keeps only its `crowdShare` deepest pairs, enough to push it out of the
/// crowd. A pair is kept when either of its items keeps it, and an item that is not crowded
/// keeps all of its pairs, so a floor under many small boxes keeps every one of them. A spawn
/// then costs a few times what a pile of the same size costs over its first seconds, not N²
/// (`ContactLimits` bounds any one step); a scene without a crowded item is swept exactly as
/// before, in one pass.
struct Broadphase {
    /// An axis-aligned bounding box.
    struct Bounds: Sendable {
        var minX: Double, minY: Double, maxX: Double, maxY: Double

        func overlaps(_ other: Bounds) -> Bool {
            minX <= other.maxX && other.minX <= maxX && minY <= other.maxY && other.minY <= maxY
        }
    }

    /// More deep pairs than this with items of about its size (or larger) make an item crowded.
    static let crowdLimit = 8
    /// Deep: `depthKey` below this, the inscribed circles a tenth into each other (squared).
    static let deepKey = 0.81
    /// How many pairs a crowded item keeps.
    static let crowdShare = 6

    /// An item as the crowd rule sees it: its centre and its inscribed circle's radius.
    struct Core: Sendable {
        var x: Double, y: Double, radius: Double
    }

    /// What a sweep left out (for stats; nothing in a scene without crowds).
    struct Dropped: Sendable {
        /// Pairs that neither of their items kept.
        var crowdedPairs = 0
        /// True when the candidate tests ran out before the sweep ended (`testBudget`).
        var exhausted = false
        /// Pairs past the store (2 × crowdLimit per item) in a scene with no crowded item: more
        /// than a pile could have, left out and counted rather than silently lost.
        var pastStore = 0
    }

    /// The pairs `(i, j)`, i < j, whose bounds overlap, sorted by `i` then `j`.
    static func pairs(_ bounds: [Bounds]) -> [(Int, Int)] {
        var budget = Int.max, dropped = Dropped()
        return pairs(bounds, cores: nil, testBudget: &budget, dropped: &dropped)
    }

    /// The pairs whose bounds overlap, after at most `testBudget` candidate tests (taken from
    /// it): bounded work however items crowd. With `cores`, a crowded item keeps only its
    /// `crowdShare` deepest pairs, and a pair is kept when either of its items keeps it.
    static func pairs(_ bounds: [Bounds], cores: [Core]?, testBudget: inout Int, dropped: inout Dropped) -> [(Int, Int)] {
        let n = bounds.count
        guard n > 1 else { return [] }
        let storable = 2 * crowdLimit * n
        let sweep = Sweep(bounds)
        // First pass: every pair, and each item's deep pairs with items of about its size or
        // larger (a floor under many small boxes is not crowded by them).
        var found: [(Int, Int)] = []
        found.reserveCapacity(n * 4)
        var crowding = [Int](repeating: 0, count: cores == nil ? 0 : n)
        var budget = testBudget
        if let cores {
            // A crowd's pairs are not all kept: past what a pile could have, stop storing (and
            // past four times that, stop keeping them for the crowd passes to walk).
            let walkable = 4 * storable
            crowding.withUnsafeMutableBufferPointer { crowding in
                cores.withUnsafeBufferPointer { cores in
                    dropped.exhausted = sweep.forEachOverlap(budget: &budget) { i, j in
                        if depthKey(cores[i], cores[j]) < deepKey {
                            if cores[j].radius >= cores[i].radius / 2 { crowding[i] += 1 }
                            if cores[i].radius >= cores[j].radius / 2 { crowding[j] += 1 }
                        }
                        if found.count <= walkable { found.append(i < j ? (i, j) : (j, i)) }
                    }
                }
            }
        } else {
            dropped.exhausted = sweep.forEachOverlap(budget: &budget) { i, j in found.append(i < j ? (i, j) : (j, i)) }
        }
        let tests = testBudget - budget
        testBudget = budget
        if let cores, crowding.contains(where: { $0 > crowdLimit }) {
            // All the pairs met are in `found` unless keeping them stopped: then walked again.
            found = keptPairs(sweep, met: found.count <= 4 * storable ? found : nil, cores: cores, tests: tests,
                              crowded: crowding.map { $0 > crowdLimit }, dropped: &dropped)
        } else if cores != nil, found.count > storable + 1 {
            // With cores, stored up to `storable` and one more.
            dropped.pastStore += found.count - (storable + 1)
            found.removeSubrange((storable + 1)...)
        }
        return ordered(found, count: n)
    }

    /// The second and third passes, when some item is crowded: each crowded item picks its
    /// `crowdShare` deepest pairs, then the pairs either item keeps are gathered (an item that is
    /// not crowded keeps all its pairs). Both passes make exactly the first pass's `tests`, so
    /// they meet the same pairs; or, given them (`met`, as the first pass met them), walk
    /// them instead of sweeping twice more (a pair's two items are treated alike, so that they
    /// come smaller index first changes nothing).
    private static func keptPairs(_ sweep: Sweep, met: [(Int, Int)]?, cores: [Core], tests: Int, crowded: [Bool],
                                  dropped: inout Dropped) -> [(Int, Int)] {
        func forEachMet(_ body: (Int, Int) -> Void) {
            if let met {
                for (i, j) in met { body(i, j) }
            } else {
                var budget = tests
                _ = sweep.forEachOverlap(budget: &budget, body)
            }
        }
        let n = crowded.count, slots = crowdShare
        let keepsAll = crowded.map { !$0 }
        // Each crowded item's picks, its `crowdShare` first (`Pick.precedes`), in one flat array.
        var picks = [Pick](repeating: Pick(key: .infinity, tie: .max, partner: -1), count: n * slots)
        var kept: [(Int, Int)] = []
        kept.reserveCapacity(n * crowdShare)
        var left = 0
        keepsAll.withUnsafeBufferPointer { keepsAll in
            cores.withUnsafeBufferPointer { cores in
                picks.withUnsafeMutableBufferPointer { picks in
                    forEachMet { i, j in
                        guard !keepsAll[i] || !keepsAll[j] else { return }
                        let key = depthKey(cores[i], cores[j]), tie = tie(i, j)
                        if !keepsAll[i] { offer(picks, at: i * slots, count: slots, Pick(key: key, tie: tie, partner: j)) }
                        if !keepsAll[j] { offer(picks, at: j * slots, count: slots, Pick(key: key, tie: tie, partner: i)) }
                    }
                }
            }
            picks.withUnsafeBufferPointer { picks in
                func picked(_ i: Int, _ j: Int) -> Bool {
                    for k in (i * slots)..<(i * slots + slots) where picks[k].partner == j { return true }
                    return false
                }
                forEachMet { i, j in
                    if keepsAll[i] || keepsAll[j] || picked(i, j) || picked(j, i) {
                        kept.append(i < j ? (i, j) : (j, i))
                    } else {
                        left += 1
                    }
                }
            }
        }
        dropped.crowdedPairs += left
        return kept
    }

    /// An item's candidate pair: how deep (`key`, smaller is deeper), a tie-break, the other item.
    private struct Pick {
        var key: Double
        var tie: UInt64
        var partner: Int

        func precedes(_ other: Pick) -> Bool {
            key != other.key ? key < other.key : tie != other.tie ? tie < other.tie : partner < other.partner
        }
    }

    /// Keeps the `count` first picks of those offered, sorted, in `picks[start...]` (unused
    /// places hold a pick that every real one precedes).
    @inline(__always)
    private static func offer(_ picks: UnsafeMutableBufferPointer<Pick>, at start: Int, count: Int, _ pick: Pick) {
        var at = start + count - 1
        guard pick.precedes(picks[at]) else { return }
        while at > start, pick.precedes(picks[at - 1]) {
            picks[at] = picks[at - 1]
            at -= 1
        }
        picks[at] = pick
    }

    /// Items spawned at one point are all equally deep in each other: picking by index would
    /// have every item pick the same few. A hash of the pair spreads the picks, the same on every run.
    @inline(__always)
    static func tie(_ i: Int, _ j: Int) -> UInt64 {
        var x = UInt64(min(i, j)) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(max(i, j))
        x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
        x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
        return x ^ (x >> 31)
    }

    /// How far apart two items are relative to their inscribed circles: the distance between
    /// their centres over the sum of the radii, squared (below 1 when the circles overlap; the
    /// deeper, the smaller).
    @inline(__always)
    static func depthKey(_ a: Core, _ b: Core) -> Double {
        let dx = a.x - b.x, dy = a.y - b.y, reach = max(a.radius + b.radius, 1e-9)
        return (dx * dx + dy * dy) / (reach * reach)
    }

    /// The pairs sorted by first index (a counting sort), then each first's few partners by
    /// insertion (on the buffers: checking every index was a twentieth of a pile's step). Each
    /// pair is found once, so the order is the same whatever sorts it.
    private static func ordered(_ found: [(Int, Int)], count n: Int) -> [(Int, Int)] {
        var counts = [Int](repeating: 0, count: n + 1)
        let total = found.count
        return counts.withUnsafeMutableBufferPointer { counts in
            found.withUnsafeBufferPointer { found in
                for pair in found { counts[pair.0 + 1] += 1 }
                for k in 0..<n { counts[k + 1] += counts[k] }
                return [(Int, Int)](unsafeUninitializedCapacity: total) { pairs, initialized in
                    for pair in found {
                        (pairs.baseAddress! + counts[pair.0]).initialize(to: pair)
                        counts[pair.0] += 1
                    }
                    initialized = total
                    var start = 0
                    for k in 0..<n {
                        let end = counts[k]
                        if end - start > 32 {
                            // Many partners (a floor under a pile): a real sort, not insertion.
                            var bucket = UnsafeMutableBufferPointer(rebasing: pairs[start..<end])
                            bucket.sort { $0.1 < $1.1 }
                        } else if end - start > 1 {
                            for a in (start + 1)..<end {
                                let pair = pairs[a]
                                var b = a
                                while b > start, pairs[b - 1].1 > pair.1 {
                                    pairs[b] = pairs[b - 1]
                                    b -= 1
                                }
                                pairs[b] = pair
                            }
                        }
                        start = end
                    }
                }
            }
        }
    }

    /// The bounds sorted along the axis on which the centres spread most, copied in that order
    /// so that the sweep reads them one after the other (looking each up through the order
    /// was a cache miss per candidate test).
    private struct Sweep {
        /// `sorted[p]` is the bounds of item `order[p]`.
        let sorted: [Bounds]
        let order: [Int]
        let alongX: Bool

        init(_ bounds: [Bounds]) {
            let n = bounds.count
            var sx = 0.0, sy = 0.0, sxx = 0.0, syy = 0.0
            for b in bounds {
                let x = b.minX + b.maxX, y = b.minY + b.maxY
                sx += x; sy += y; sxx += x * x; syy += y * y
            }
            let alongX = sxx - sx * sx / Double(n) >= syy - sy * sy / Double(n)
            self.alongX = alongX
            // Keys and indices sorted together (the same comparisons as sorting the indices by
            // their keys, so the same order), ties by index.
            var keyed = [(key: Double, index: Int)]()
            keyed.reserveCapacity(n)
            for (k, b) in bounds.enumerated() { keyed.append((alongX ? b.minX : b.minY, k)) }
            keyed.sort { $0.key < $1.key || ($0.key == $1.key && $0.index < $1.index) }
            var order = [Int](), sorted = [Bounds]()
            order.reserveCapacity(n)
            sorted.reserveCapacity(n)
            for entry in keyed {
                order.append(entry.index)
                sorted.append(bounds[entry.index])
            }
            self.order = order
            self.sorted = sorted
        }

        /// Calls `body(i, j)` for each overlapping pair, each box against those that start before
        /// it ends along the axis, until `budget` candidate tests are spent (taken from it); true
        /// when they ran out first.
        @inline(__always)
        func forEachOverlap(budget: inout Int, _ body: (Int, Int) -> Void) -> Bool {
            var left = budget, exhausted = false
            sorted.withUnsafeBufferPointer { sorted in
                order.withUnsafeBufferPointer { order in
                    exhausted = alongX ? Self.sweep(sorted, order, &left, { $0.minX }, { $0.maxX }, body)
                                       : Self.sweep(sorted, order, &left, { $0.minY }, { $0.maxY }, body)
                }
            }
            budget = left
            return exhausted
        }

        /// The sweep along one axis (`low`, `high`: a box's extent along it), one loop per axis.
        /// Each box's run (the boxes after it that start before it ends) is found first, then
        /// its candidate tests are taken from `left` at once: a test per box of the run, and one
        /// for the box that ends it, exactly as testing them one by one counted (and when they
        /// run out inside a run, the same boxes are tested).
        @inline(__always)
        private static func sweep(_ sorted: UnsafeBufferPointer<Bounds>, _ order: UnsafeBufferPointer<Int>, _ left: inout Int,
                                  _ low: (Bounds) -> Double, _ high: (Bounds) -> Double, _ body: (Int, Int) -> Void) -> Bool {
            let n = sorted.count
            for p in 0..<n {
                let box = sorted[p]
                let end = high(box)
                var runEnd = p + 1
                while runEnd < n, !(low(sorted[runEnd]) > end) { runEnd += 1 }
                let tests = runEnd - p - 1 + (runEnd < n ? 1 : 0)
                let exhausted = tests > left
                let last = exhausted ? p + 1 + left : runEnd
                left = exhausted ? 0 : left - tests
                for q in (p + 1)..<max(p + 1, last) where box.overlaps(sorted[q]) { body(order[p], order[q]) }
                if exhausted { return true }
            }
            return false
        }
    }
}
