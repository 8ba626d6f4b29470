/// A joint's accumulated impulses at the end of a step, with the bodies it joined and the
/// (sub-)step they were for: the next step's joint in its place starts from them, rescaled to
/// its own step (warm starting). Kept in a snapshot, so a restored animator goes on as one that
/// never stopped.
public struct JointImpulse: Hashable, Sendable {
    /// Body indices (nil: the world).
    public var a: Int?
    public var b: Int
    public var h: Double
    /// The joint kind's impulses, in its own order.
    public var values: [Double]

    public init(a: Int?, b: Int, h: Double, values: [Double]) {
        self.a = a; self.b = b; self.h = h; self.values = values
    }

    /// The impulses for a step of `step` seconds, if this is the same joint (the same bodies).
    func rescaled(a: Int?, b: Int, step: Double, count: Int) -> [Double]? {
        guard self.a == a, self.b == b, h > 0, values.count == count else { return nil }
        return values.map { $0 * (step / h) }
    }
}

/// Every joint's impulses at the end of a step, by kind, in the order the behaviours added them
/// (rigid rods start cold and keep none).
public struct JointImpulses: Hashable, Sendable {
    public var ropes: [JointImpulse] = []
    public var pins: [JointImpulse] = []
    public var welds: [JointImpulse] = []
    public var slides: [JointImpulse] = []

    public init() {}
}
