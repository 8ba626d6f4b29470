/// iOS 9's task switcher as a custom carousel transform, from the CocoaChina article's model
/// and the many public iCarousel demos built on it (`calcTranslationWithOffset`, e.g.
/// "TaskManager", 2016): the card at offset o slides `translation(o)` card widths to the right
/// (a hyperbola: 4/5 at o = 1, −2/5 at o = −2, cards on the left piling up towards −4/5), is
/// scaled by `1 + 0.02·o` and moved o points towards the eye so that later cards lie on top.
///
/// Choices where the demos differ or leave a gap, written down:
/// - The current card sits right of the view's centre, as in iOS 9's switcher, where the card
///   before it peeks out on the left: the whole fan is moved right by 2/15 of a card width,
///   half of how far the card before it stands to the left (−T(−1) = 4/15), so the two share
///   the middle of the screen. (The demos centre it: iCarousel centres each item and
///   T(0) = 0; they shift it with the carousel's frame instead, which a layout has not.)
/// - The hyperbola runs to infinity as o → 2 and the demos jump to 2 card widths at o ≥ 2. We
///   cap it at 2: `min(T(o), 2)` for o < 2, and 2 beyond, which equals the demos wherever a
///   card is on screen (2 card widths put a card of 5/7 of the screen off it) while staying
///   continuous and finite.
/// - The scale's z factor is 1 (the demos use 0 or 1; 0 flattens the matrix, m33 = 0, which
///   culls the card when backfaces are hidden).
/// - The scale is 1 + 0.02·o (most demos; some use 0.04).
/// - The card width is the carousel's itemWidth; like every custom transform it ignores
///   `vertical`, as iCarousel's custom type does.
public enum TaskSwitcherTransform {
    /// The demos' hyperbola constants: T(o) = 1/(z − a·o) − 1/z.
    static let z = 5.0 / 4.0
    static let a = 5.0 / 8.0
    /// Where cards far to the right rest, in card widths.
    static let offScreen = 2.0
    /// How far right of the view's centre the current card sits, in card widths: −T(−1)/2.
    public static let shift = 2.0 / 15.0

    /// The horizontal translation in card widths: `min(1/(5/4 − 5/8·o) − 4/5, 2)` for o below
    /// the pole at 2, and 2 from there on.
    public static func translation(offset o: Double) -> Double {
        let denominator = z - a * o
        guard o < z / a, denominator > 0 else { return offScreen }
        return min(1 / denominator - 1 / z, offScreen)
    }

    /// The card's scale: 1 + 0.02·o.
    public static func scale(offset o: Double) -> Double { 1 + 0.02 * o }

    /// translate((T(o) + shift)·cardWidth, 0, o) then scale(s, s, 1), in the item's space after `base`.
    public static func transform(offset o: Double, cardWidth: Double, base: Transform3D) -> Transform3D {
        let s = scale(offset: o)
        return base.translated(x: (translation(offset: o) + shift) * cardWidth, y: 0, z: o).scaled(x: s, y: s, z: 1)
    }
}
