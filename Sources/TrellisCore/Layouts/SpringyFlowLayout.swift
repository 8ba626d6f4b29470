/// Seed 000's springy flow layout (iOS 7's Messages): a UICollectionViewFlowLayout whose items
/// hang on springs (UIAttachmentBehavior, length 0, damping 0.5, frequency 0.8) anchored at
/// their flow centres, so a scroll stretches and compresses the list: each item moves with the
/// content by the scroll step times its distance from the touch over `scrollResistance` (500),
/// never more than the step, and springs back. At rest it is exactly the flow layout; the
/// springs live in the engine's dynamics stage, tiled to what is shown (`LayoutSprings`).
/// Horizontal flows stretch along x as vertical ones along y.
public struct SpringyFlowLayout: RegisteredLayout {
    /// The flow it hangs on springs: every flow key is this layout's too.
    public var flow: FlowLayout
    /// The seed's damping 0.5 (the damping ratio; 1 is critical).
    public var damping: Double
    /// The seed's frequency 0.8 Hz.
    public var frequency: Double
    /// The seed's 500 points of distance from the touch per unit of lag.
    public var scrollResistance: Double
    /// Items this far outside the visible rect have springs too (WWDC 2013's 100 points).
    public var tileMargin: Double

    public init(flow: FlowLayout = FlowLayout(), damping: Double = 0.5, frequency: Double = 0.8,
                scrollResistance: Double = 500, tileMargin: Double = 100) {
        self.flow = flow
        self.damping = damping
        self.frequency = frequency
        self.scrollResistance = scrollResistance
        self.tileMargin = tileMargin
    }

    public init() { self.init(flow: FlowLayout()) }

    public static var typeName: String { "springy" }

    /// Every flow key, then the springs' own. Damping above 0 and frequency at most 30 Hz, as
    /// attachments; the resistance above 0 (it divides).
    public static var parameters: [LayoutParameter<SpringyFlowLayout>] {
        FlowLayout.parameters.map { p in
            LayoutParameter(p.description, get: { p.get($0.flow) }, set: { p.set(&$0.flow, $1) })
        } + [
            .number("damping", \.damping, 0.01...10, "The springs' damping ratio, 0.01…10 (the seed's 0.5; 1 is critical)."),
            .number("frequency", \.frequency, 0.01...30, "The springs' frequency in Hz, 0.01…30 (the seed's 0.8)."),
            .number("scrollResistance", \.scrollResistance, 1...layoutLengthLimit,
                    "Points from the touch per unit of lag, 1…1e6 (the seed's 500)."),
            .number("tileMargin", \.tileMargin, 0...10_000, "Items this far outside the view have springs, 0…10,000 (WWDC 2013's 100)."),
        ]
    }

    public var springs: LayoutSprings? {
        LayoutSprings(frequency: frequency, damping: damping, scrollResistance: scrollResistance, tileMargin: tileMargin,
                      vertical: flow.scrollDirection == .vertical)
    }

    public mutating func prepare(_ context: LayoutContext, invalidation: LayoutInvalidation) {
        flow.prepare(context, invalidation: invalidation)
    }

    public var contentSize: Size { flow.contentSize }
    public func attributes(in rect: Rect) -> [LayoutAttributes] { flow.attributes(in: rect) }
    public func attributes(in rect: Rect, after: ElementID?, limit: Int) -> [LayoutAttributes] {
        flow.attributes(in: rect, after: after, limit: limit)
    }
    public func attributes(for element: ElementID) -> LayoutAttributes? { flow.attributes(for: element) }
    public func shouldInvalidate(forBoundsChange newBounds: Rect) -> Bool { flow.shouldInvalidate(forBoundsChange: newBounds) }
}
