#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TrellisCore
import TrellisDynamics

/// Puts the debug layer's view-relative shapes (`DebugShape.view`) where their view is on
/// screen, for viewers that draw in content coordinates (the SVG writer, the terminal): each
/// point goes through the view's centre and 3-D transform (perspective included), so an item's
/// outline sits on its view however the view is turned. A shape whose view the scene does not
/// show is left out (its item is not on screen).
public enum DebugLayerPlacement {
    /// `shapes` with every view-relative shape in content coordinates, in the same order.
    public static func inContent(_ shapes: [DebugShape], scene: Scene) -> [DebugShape] {
        guard shapes.contains(where: { $0.view != nil }) else { return shapes }
        var attributes: [Int: LayoutAttributes] = [:]
        for view in scene.views { attributes[view.view.rawValue] = view.attributes }
        return shapes.compactMap { shape in
            guard let number = shape.view else { return shape }
            guard let a = attributes[number] else { return nil }
            return placed(shape, on: a)
        }
    }

    /// One view-relative shape in content coordinates, drawn on a view with attributes `a`.
    public static func placed(_ shape: DebugShape, on a: LayoutAttributes) -> DebugShape {
        let center = a.center, turned = a.hasTransform
        let transform = turned ? a.transform : .identity
        func map(_ p: Point) -> Point { turned ? center + transform.apply(to: p) : center + Vector(dx: p.x, dy: p.y) }
        var placed = shape
        placed.view = nil
        switch shape.geometry {
        case .polygon(let p): placed.geometry = .polygon(p.map(map))
        case .polyline(let p): placed.geometry = .polyline(p.map(map))
        case .box: placed.geometry = .polygon(shape.geometry.points.map(map))
        case .ellipse(let c, let r):
            // Under a turn or a perspective an ellipse is no longer axis-aligned: its outline.
            if turned {
                placed.geometry = .polygon((0..<32).map { k in
                    let t = Double(k) * 2 * Double.pi / 32
                    return map(Point(x: c.x + r.width * cos(t), y: c.y + r.height * sin(t)))
                })
            } else {
                placed.geometry = .ellipse(center: map(c), radii: r)
            }
        case .point(let p): placed.geometry = .point(map(p))
        case .arrow(let from, let to): placed.geometry = .arrow(from: map(from), to: map(to))
        }
        return placed
    }
}
