// The dynamics benchmark scenes, shared by the ordo-one benchmarks (dynamics.*) and
// `physics-bench` (the Trellis side of `tools/bench physics`). Box2DHarness/box2d_harness.cpp
// builds the same scenes in Box2D 2.4 at 100 pt per metre; keep the two in step.
#if canImport(Glibc)
import Glibc
#endif
import TrellisDynamics
import TrellisGeometry

/// The scenes, built afresh (an animator is a value: each run starts from the same state).
public enum DynamicsScene {
    /// `dynamics.springs.10k`: 10,000 free 100×100 items (density 1, mass 1) on a 100-wide grid
    /// 200 pt apart, each on a zero-length attachment (0.8 Hz, damping 0.5) to its own fixed
    /// point 30 pt away ((18, 24)); no collisions, no gravity.
    public static func springs(count: Int = 10_000) -> DynamicAnimator {
        var animator = DynamicAnimator(referenceBounds: Rect(0, 0, 20_000, 200 * Double((count + 99) / 100)))
        var anchors: [Point] = []
        for k in 0..<count {
            let anchor = Point(200 * Double(k % 100), 200 * Double(k / 100))
            anchors.append(anchor)
            animator.setItem(DynamicItemID(k), DynamicBody(center: Point(anchor.x + 18, anchor.y + 24), size: Size(100, 100)))
        }
        for k in 0..<count {
            var attachment = AttachmentBehavior(item: DynamicItemID(k), anchor: .point(anchors[k]))
            attachment.length = 0
            attachment.frequency = 0.8
            attachment.damping = 0.5
            animator.add(attachment)
        }
        return animator
    }

    /// `dynamics.pile.1k`: 1,000 items of 30×30 in a 25-wide grid 36 pt apart (centred, the top
    /// row 50 pt below the top), dropped into the 1,200 × 2,000 reference bounds (the boundary),
    /// gravity 1 (1,000 pt/s²), friction 0.3, elasticity 0.
    public static func pile(count: Int = 1_000) -> DynamicAnimator {
        let left = (1_200 - 24 * 36.0) / 2
        return boxes(count) { k in Point(left + 36 * Double(k % 25), 50 + 36 * Double(k / 25)) }
    }

    /// `dynamics.spawn.1500`: the pile's 1,500 boxes all spawned at one point, (600, 1,000):
    /// every pair overlaps at the start, a million of them. Issue 24: such a spawn must cost
    /// what a pile of the same size costs, not N².
    public static func spawn(count: Int = 1_500) -> DynamicAnimator {
        boxes(count) { _ in Point(600, 1_000) }
    }

    /// `count` boxes of 30×30 at `place(k)` in the 1,200 × 2,000 bounds (the boundary), gravity
    /// 1 (1,000 pt/s²), friction 0.3, elasticity 0.
    static func boxes(_ count: Int, at place: (Int) -> Point) -> DynamicAnimator {
        var animator = DynamicAnimator(referenceBounds: Rect(0, 0, 1_200, 2_000))
        let ids = (0..<count).map(DynamicItemID.init)
        for (k, id) in ids.enumerated() { animator.setItem(id, DynamicBody(center: place(k), size: Size(30, 30))) }
        var collision = CollisionBehavior(items: ids)
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.add(collision)
        animator.add(GravityBehavior(items: ids))
        var material = ItemBehavior(items: ids)
        material.properties.friction = 0.3
        material.properties.elasticity = 0
        animator.add(material)
        return animator
    }
}

/// Step times of one or more runs: wall clock and the thread's CPU time (which leaves out what
/// other processes took on a shared machine), in microseconds.
public struct StepTimes: Sendable {
    public private(set) var wall: [Double] = []
    public private(set) var cpu: [Double] = []

    public init() {}

    /// Takes one step of `animator`, timed.
    public mutating func step(_ animator: inout DynamicAnimator) {
        let cpuStart = Self.threadCPU(), start = Self.monotonic()
        animator.advance(steps: 1)
        let stop = Self.monotonic()
        cpu.append(Self.threadCPU() - cpuStart)
        wall.append(stop - start)
    }

    static func monotonic() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) * 1e6 + Double(t.tv_nsec) / 1e3
    }

    static func threadCPU() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) * 1e6 + Double(t.tv_nsec) / 1e3
    }

    public static func median(_ values: some Collection<Double>) -> Double {
        let sorted = values.sorted(), n = sorted.count
        guard n > 0 else { return .nan }
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
    }

    public static func mean(_ values: some Collection<Double>) -> Double {
        values.isEmpty ? .nan : values.reduce(0, +) / Double(values.count)
    }

    /// The steps of second `k` (60 steps at 60 Hz).
    public static func second(_ k: Int, of steps: [Double]) -> ArraySlice<Double> {
        steps[(60 * k)..<min(steps.count, 60 * (k + 1))]
    }

    /// The second whose steps have the highest mean time (the first such).
    public static func busiestSecond(_ steps: [Double]) -> Int {
        var busiest = 0, highest = -Double.infinity
        for k in 0..<((steps.count + 59) / 60) where mean(second(k, of: steps)) > highest {
            highest = mean(second(k, of: steps))
            busiest = k
        }
        return busiest
    }
}
