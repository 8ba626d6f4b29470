/// A declarative `visibleItemsInvalidationHandler` as carousels use it: an orthogonal
/// section's cells shrink and fade with the distance of their centre from the band's visible
/// centre, from full size and opacity on the centre to `minimumScale` and `minimumAlpha` at
/// `distance` and beyond (ours; UIKit leaves the handler's code to the app).
public struct CompositionalVisibleItemsEffect: Hashable, Sendable {
    /// The scale at `distance` and beyond, 0…1 (1: no scaling).
    public var minimumScale: Double
    /// The alpha at `distance` and beyond, 0…1 (1: no fading).
    public var minimumAlpha: Double
    /// Points from the centre at which the minimum is reached; nil: half the band's length.
    public var distance: Double?

    public init(minimumScale: Double = 1, minimumAlpha: Double = 1, distance: Double? = nil) {
        self.minimumScale = minimumScale; self.minimumAlpha = minimumAlpha; self.distance = distance
    }

    /// `a` (a cell `offCentre` points from the band's visible centre, in a band `bandLength`
    /// long) scaled about its centre and faded.
    @inline(__always)
    func apply(to a: inout LayoutAttributes, offCentre: Double, bandLength: Double) {
        let reach = distance ?? bandLength / 2
        let nearness = CentreFalloff.nearness(offCentre, within: reach)
        if minimumScale != 1 {
            let scale = 1 - (1 - minimumScale) * (1 - nearness)
            a.transform = .scale(x: scale, y: scale, z: 1)
        }
        if minimumAlpha != 1 { a.alpha *= 1 - (1 - minimumAlpha) * (1 - nearness) }
    }
}
