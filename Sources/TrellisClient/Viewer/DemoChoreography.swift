import TrellisCore
import TrellisProtocol

/// What `trellis demo` does to its session, step after step: batch updates (inserts, deletes,
/// moves) and animated layout changes flow → line → carousel → circle → flow, as protocol requests. It keeps
/// its own count of the items (the demo is the session's only writer) and a seeded generator,
/// so the same steps come out on every run.
public struct DemoChoreography: Sendable {
    /// One request (and any that go with it at once) and a title for it.
    public struct Step: Sendable {
        public var title: String
        public var method: String
        public var params: [String: JSONValue]
        /// Requests sent right after, in order (a drag's changed and ended samples).
        public var followUps: [Request] = []
    }

    /// A request of a step.
    public struct Request: Sendable {
        public var method: String
        public var params: [String: JSONValue]
    }

    public let session: String
    /// Items of the flow layout; the circle's are a little smaller.
    public let itemSize: Size
    /// The session's bounds: the line layout centres its row in them.
    public let bounds: Size
    public private(set) var itemCount: Int
    public private(set) var layout = "flow"
    private var nextItem: Int
    private var random: SplitMix64
    private var step = 0

    /// Fewer and the circle looks empty; more and the flow does not fit a terminal.
    static let itemRange = 6...20
    /// Named and hex colours alike, as `data.color` allows both.
    static let palette = ["tomato", "#3cb44b", "gold", "#4363d8", "orange", "#911eb4", "turquoise", "#f032e6", "crimson", "#469990"]

    public init(session: String = "demo", items: Int = 12, itemSize: Size = Size(84, 60), bounds: Size = Size(375, 600),
                seed: UInt64 = 2002) {
        self.session = session
        self.itemSize = itemSize
        self.bounds = bounds
        itemCount = items
        nextItem = items
        random = SplitMix64(seed: seed)
    }

    /// The `session.create` params: the starting items in a flow layout, in the bounds given at `init`.
    public func createParams(clock: String) -> [String: JSONValue] {
        ["name": .string(session), "bounds": .array([.number(bounds.width), .number(bounds.height)]),
         "clock": .string(clock), "layout": flowLayout,
         "sections": .array([.object(["id": .string("s0"), "items": .array((0..<itemCount).map(Self.item))])])]
    }

    /// Item `n`: id `d<n>`, label `#<n>`, a colour of the palette.
    public static func item(_ n: Int) -> JSONValue {
        .object(["id": .string("d\(n)"),
                 "data": .object(["label": .string("#\(n)"), "color": .string(palette[n % palette.count])])])
    }

    /// Starts counting again from the server's figure (after someone else changed the session).
    public mutating func resynchronize(itemCount: Int) { self.itemCount = itemCount }

    /// The next request. A cycle of fourteen: insert, delete, move, to line, insert, to carousel,
    /// delete and insert together, move, to circle, insert, delete, back to flow, to springy, and
    /// a drag released into a fling that stretches it.
    public mutating func next() -> Step {
        defer { step += 1 }
        switch step % 14 {
        case 12: return setLayout("springy")
        case 13: return drag()
        case 3: return setLayout("line")
        case 5: return setLayout("carousel")
        case 8: return setLayout("circle")
        case 11: return setLayout("flow")
        case 0, 4, 9: return itemCount < Self.itemRange.upperBound ? insert(1 + random.below(2)) : delete(2)
        case 1, 10: return itemCount > Self.itemRange.lowerBound ? delete(1 + random.below(2)) : insert(2)
        case 6: return mixed()
        default: return move()
        }
    }

    private var flowLayout: JSONValue {
        .object(["type": .string("flow"), "itemSize": .array([.number(itemSize.width), .number(itemSize.height)]),
                 "minimumLineSpacing": .number(12), "minimumInteritemSpacing": .number(12),
                 "sectionInset": .array([12, 12, 12, 12].map { JSONValue.number($0) })])
    }

    private var circleLayout: JSONValue {
        .object(["type": .string("circle"), "itemSize": .array([.number(itemSize.width * 0.8), .number(itemSize.height * 0.8)])])
    }

    /// Apple's LineLayout at the demo's scale: bigger items in one row, centred across the bounds.
    private var lineLayout: JSONValue {
        let size = Size(itemSize.width * 1.25, itemSize.height * 1.25)
        let inset = max(0, (bounds.height - size.height) / 2)
        return .object(["type": .string("line"), "itemSize": .array([.number(size.width), .number(size.height)]),
                        "sectionInset": .array([inset, 0, inset, 0].map { JSONValue.number($0) }),
                        "minimumLineSpacing": .number(itemSize.width * 0.3), "activeDistance": .number(size.width)])
    }

    /// Seed 000's springy flow at the flow's metrics.
    private var springyLayout: JSONValue {
        guard case .object(var spec) = flowLayout else { return flowLayout }
        spec["type"] = .string("springy")
        return .object(spec)
    }

    /// A finger a third of the way down the view pulls the content up by half the view and lets
    /// go at 1,500 pt/s: the springy list stretches and springs back.
    private func drag() -> Step {
        let name = JSONValue.string(session)
        func pan(_ phase: String, _ dy: Double, velocity: Double? = nil) -> [String: JSONValue] {
            var p: [String: JSONValue] = ["session": name, "phase": .string(phase), "translation": .array([.number(0), .number(dy)])]
            if phase == "began" { p["location"] = .array([.number(bounds.width / 2), .number(bounds.height / 3)]) }
            if let velocity { p["velocity"] = .array([.number(0), .number(velocity)]) }
            return p
        }
        let by = -(bounds.height / 2).rounded()
        return Step(title: "drag by 0,\(Int(by)) and let go", method: "gesture.pan", params: pan("began", 0),
                    followUps: [Request(method: "gesture.pan", params: pan("changed", by)),
                                Request(method: "gesture.pan", params: pan("ended", by, velocity: -1500))])
    }

    /// A rotary carousel that wraps, iCarousel's classic.
    private var carouselLayout: JSONValue {
        .object(["type": .string("carousel"), "style": .string("rotary"),
                 "itemSize": .array([.number(itemSize.width), .number(itemSize.height)])])
    }

    private mutating func setLayout(_ type: String) -> Step {
        layout = type
        let spec = ["flow": flowLayout, "line": lineLayout, "carousel": carouselLayout, "springy": springyLayout][type] ?? circleLayout
        return Step(title: "layout → \(type) (animated)", method: "layout.set",
                    params: ["session": .string(session), "layout": spec,
                             "animated": .bool(true), "duration": .number(0.6), "curve": .string("easeInEaseOut")])
    }

    private mutating func insert(_ count: Int) -> Step {
        // Insert index paths are positions after the update: distinct, and below the new count.
        var picked = Set<Int>()
        while picked.count < count { picked.insert(random.below(itemCount + count)) }
        let indexes = picked.sorted()
        let numbers = indexes.indices.map { nextItem + $0 }
        nextItem += count
        itemCount += count
        let title = "insert " + zip(numbers, indexes).map { "#\($0) at 0:\($1)" }.joined(separator: ", ")
        return batch(title, [["op": .string("insertItems"), "at": .array(indexes.map { wire(0, $0) }),
                              "items": .array(numbers.map(Self.item))]])
    }

    private mutating func delete(_ count: Int) -> Step {
        let count = min(count, itemCount)
        var picked = Set<Int>()
        while picked.count < count { picked.insert(random.below(itemCount)) }
        let indexes = picked.sorted()
        itemCount -= count
        return batch("delete " + indexes.map { "0:\($0)" }.joined(separator: ", "),
                     [["op": .string("deleteItems"), "at": .array(indexes.map { wire(0, $0) })]])
    }

    private mutating func move() -> Step {
        let from = random.below(itemCount)
        var to = random.below(itemCount)
        if to == from { to = (from + 1) % itemCount }
        return batch("move 0:\(from) → 0:\(to)", [["op": .string("moveItem"), "from": wire(0, from), "to": wire(0, to)]])
    }

    /// A delete and an insert in one batch, the insert at an index after the update.
    private mutating func mixed() -> Step {
        let deleted = random.below(itemCount)
        let inserted = random.below(itemCount)
        let ops: [[String: JSONValue]] = [
            ["op": .string("deleteItems"), "at": .array([wire(0, deleted)])],
            ["op": .string("insertItems"), "at": .array([wire(0, inserted)]), "items": .array([Self.item(nextItem)])],
        ]
        let title = "delete 0:\(deleted), insert #\(nextItem) at 0:\(inserted)"
        nextItem += 1
        return batch(title, ops)
    }

    private func batch(_ title: String, _ ops: [[String: JSONValue]]) -> Step {
        Step(title: title, method: "batch",
             params: ["session": .string(session), "ops": .array(ops.map { .object($0) }), "duration": .number(0.4)])
    }

    private func wire(_ section: Int, _ item: Int) -> JSONValue { .array([.number(Double(section)), .number(Double(item))]) }
}
