import Foundation
@testable import TrellisCore

// Row-major 4×4 matrices written out by hand, Core Animation's row-vector convention
// (p' = p · M), so that the tests compute iCarousel's formulas without the code under test.
typealias M4 = [Double]

func m4(_ rows: [Double]...) -> M4 { rows.flatMap { $0 } }

func m4Identity() -> M4 { m4([1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]) }

/// a · b (apply a first, then b).
func m4Mul(_ a: M4, _ b: M4) -> M4 {
    var r = M4(repeating: 0, count: 16)
    for i in 0..<4 { for j in 0..<4 { for k in 0..<4 { r[i * 4 + j] += a[i * 4 + k] * b[k * 4 + j] } } }
    return r
}

func m4Translate(_ x: Double, _ y: Double, _ z: Double) -> M4 { m4([1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [x, y, z, 1]) }
func m4Scale(_ x: Double, _ y: Double, _ z: Double) -> M4 { m4([x, 0, 0, 0], [0, y, 0, 0], [0, 0, z, 0], [0, 0, 0, 1]) }
/// CATransform3DMakeRotation(a, 0, 1, 0).
func m4RotY(_ a: Double) -> M4 { m4([cos(a), 0, -sin(a), 0], [0, 1, 0, 0], [sin(a), 0, cos(a), 0], [0, 0, 0, 1]) }
/// CATransform3DMakeRotation(a, 1, 0, 0); about (−1, 0, 0) is this with −a.
func m4RotX(_ a: Double) -> M4 { m4([1, 0, 0, 0], [0, cos(a), sin(a), 0], [0, -sin(a), cos(a), 0], [0, 0, 0, 1]) }
/// CATransform3DMakeRotation(a, 0, 0, 1).
func m4RotZ(_ a: Double) -> M4 { m4([cos(a), sin(a), 0, 0], [-sin(a), cos(a), 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]) }

/// iCarousel's base: m34 = perspective, then CATransform3DTranslate by −viewpoint (which applies first).
func m4Base(perspective p: Double = -1.0 / 500, viewpoint: (Double, Double) = (0, 0)) -> M4 {
    m4Mul(m4Translate(-viewpoint.0, -viewpoint.1, 0), m4([1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, p], [0, 0, 0, 1]))
}

/// CATransform3DTranslate / Rotate / Scale (t, …): the new step applies first.
func caThen(_ t: M4, _ step: M4) -> M4 { m4Mul(step, t) }

func m4Close(_ a: M4, _ b: M4, tolerance: Double = 1e-9) -> Bool {
    zip(a, b).allSatisfy { abs($0 - $1) <= tolerance * max(1, abs($0), abs($1)) }
}

/// iCarousel's per-type transform for `offset`, written out from iCarousel.m's formulas with
/// the defaults of a 200 pt item in a 320-wide (or 480-high, vertical) view: count 12.
func expectedStyleMatrix(_ style: CarouselStyle, offset o: Double, vertical v: Bool, w: Double = 200, count: Double = 12,
                         base: M4 = m4Base()) -> M4 {
    let arc = 2 * Double.pi
    switch style {
    case .linear:
        return caThen(base, v ? m4Translate(0, o * w, 0) : m4Translate(o * w, 0, 0))
    case .rotary, .invertedRotary:
        var r = max(w / 2, w / 2 / tan(arc / 2 / count)), a = o / count * arc
        if style == .invertedRotary { r = -r; a = -a }
        return caThen(base, v ? m4Translate(0, r * sin(a), r * cos(a) - r) : m4Translate(r * sin(a), 0, r * cos(a) - r))
    case .cylinder, .invertedCylinder:
        var r = max(0.01, w / 2 / tan(arc / 2 / count)), a = o / count * arc
        if style == .invertedCylinder { r = -r; a = -a }
        var t = caThen(base, m4Translate(0, 0, -r))
        t = caThen(t, v ? m4RotX(-a) : m4RotY(a))
        return caThen(t, m4Translate(0, 0, r + 0.01))
    case .wheel, .invertedWheel:
        var r = w * count / arc, step = arc / count
        if style == .invertedWheel { r = -r; step = -step }
        var t = caThen(base, v ? m4Translate(-r, 0, 0) : m4Translate(0, r, 0))
        t = caThen(t, m4RotZ(step * o))
        return caThen(t, v ? m4Translate(r, 0, o * 0.01) : m4Translate(0, -r, o * 0.01))
    case .coverFlow, .coverFlow2:
        let tilt = 0.9, spacing = 0.25, c = max(-1, min(1, o))
        let x = (c * 0.5 * tilt + o * spacing) * w, z = abs(c) * -w * 0.5
        let t = caThen(base, v ? m4Translate(0, x, z) : m4Translate(x, 0, z))
        return caThen(t, v ? m4RotX(c * Double.pi / 2 * tilt) : m4RotY(-c * Double.pi / 2 * tilt))
    case .timeMachine, .invertedTimeMachine:
        var tilt = 0.3, off = o
        if style == .invertedTimeMachine { tilt = -tilt; off = -off }
        return caThen(base, v ? m4Translate(0, off * w * tilt, off * w) : m4Translate(off * w * tilt, 0, off * w))
    case .custom:
        // The task switcher: 1/(5/4 − 5/8·o) − 4/5 card widths (capped at 2), tz = o, scale 1 + 0.02·o,
        // the fan moved right by half of T(−1) = 1/(5/4 + 5/8) − 4/5 = −4/15.
        let tx = (o >= 2 ? 2 : min(2, 1 / (1.25 - 0.625 * o) - 0.8)) + 2.0 / 15
        let s = 1 + 0.02 * o
        return caThen(caThen(base, m4Translate(tx * w, 0, o)), m4Scale(s, s, 1))
    }
}

/// One section of `n` items of the layout's default size.
func carouselData(_ n: Int) -> CollectionData { CollectionData.generated(count: n) }

/// `layout` prepared for `n` items in `bounds` at `offset`.
func preparedCarousel(_ layout: CarouselLayout, items n: Int = 20, bounds: Size = Size(320, 480),
                      offset: Point = .zero, data: CollectionData? = nil) -> CarouselLayout {
    var l = layout
    l.prepare(LayoutContext(data: data ?? carouselData(n), boundsSize: bounds, contentOffset: offset), invalidation: .all)
    return l
}

/// The item's projected centre on screen (content coordinates).
func projectedCentre(_ a: LayoutAttributes) -> Point { a.center + a.transform.apply(to: .zero) }

extension LayoutAttributes {
    var everyNumber: [Double] {
        [frame.origin.x, frame.origin.y, frame.size.width, frame.size.height, alpha] + transform.values
    }
}
