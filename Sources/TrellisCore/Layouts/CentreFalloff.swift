/// How near an element is to a centre, as the line layout's zoom and the compositional
/// visible-items effect weigh it: 1 on the centre, falling linearly to 0 at `reach` points
/// from it and staying 0 beyond.
enum CentreFalloff {
    @inline(__always)
    static func nearness(_ distance: Double, within reach: Double) -> Double {
        guard reach > 0 else { return distance == 0 ? 1 : 0 }
        return Swift.max(0, 1 - Swift.abs(distance) / reach)
    }
}
