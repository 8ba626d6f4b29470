import TrellisCore

/// How near a view looks among the views drawn with it, so depth reads in a terminal: a rotary
/// carousel's cards in front are drawn with heavy strokes, those behind with light, dimmed ones
/// (which views cover which is the z-order's business; this is the shading).
///
/// A view's depth is the z of its centre through its transform, Core Animation's m43 (+z comes
/// towards the eye; iCarousel sorts its views by it too). The views' depths are split in
/// thirds of their span: the nearest third is near, the farthest far. A scene whose depths
/// span less than `minimumSpan` points has no depth worth showing (flat layouts, a task
/// switcher's cards a point apart): every view is middle, drawn as before.
public enum DepthCue: Hashable, Sendable {
    case near, middle, far

    /// Points of depth below which a scene counts as flat.
    public static let minimumSpan = 10.0

    /// The z of the view's centre, points towards the eye.
    public static func depth(of attributes: LayoutAttributes) -> Double {
        attributes.hasTransform ? attributes.transform.m43 : 0
    }

    /// The cue of each depth in `depths`, in order.
    public static func cues(for depths: [Double]) -> [DepthCue] {
        guard let nearest = depths.max(), let farthest = depths.min(), nearest - farthest >= minimumSpan else {
            return depths.map { _ in .middle }
        }
        let third = (nearest - farthest) / 3
        return depths.map { $0 >= nearest - third ? .near : $0 < farthest + third ? .far : .middle }
    }
}
