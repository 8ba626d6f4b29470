/// Where and how one element is shown, as UICollectionViewLayoutAttributes: the frame
/// (centre and size derived), a 3-D transform about the centre, alpha, z-index and hidden. Value equality
/// compares every field, so an unchanged element is never re-sent.
public struct LayoutAttributes: Hashable, Sendable {
    public var element: ElementID
    /// The untransformed frame (stored as such so that what goes over the wire comes back exact).
    public var frame: Rect
    /// Applied about the centre (a layer's default anchor point). Default identity.
    public var transform: Transform3D {
        get {
            if case .matrix(let m) = transformStorage { return m }
            return .identity
        }
        set { transformStorage = newValue.isIdentity ? .identity : .matrix(newValue) }
    }
    /// True when a transform other than identity is set (no matrix read or compared).
    @inlinable public var hasTransform: Bool {
        if case .matrix = transformStorage { return true }
        return false
    }
    /// Compares transforms without building either matrix when both are identity.
    @inlinable public func hasSameTransform(as other: LayoutAttributes) -> Bool { transformStorage == other.transformStorage }
    /// Identity takes no room and any other matrix is boxed: a 128-byte matrix inline made
    /// attributes 217 bytes, the engine copies them for every view of every frame, and
    /// nearly every element is untransformed. Never `.matrix(.identity)`, so equality holds.
    @usableFromInline var transformStorage: TransformStorage
    /// Default 1.
    public var alpha: Double
    /// Higher is in front; default 0.
    public var zIndex: Int
    /// Default false.
    public var isHidden: Bool

    public init(element: ElementID, frame: Rect, transform: Transform3D = .identity, alpha: Double = 1,
                zIndex: Int = 0, isHidden: Bool = false) {
        self.element = element
        self.frame = frame
        self.transformStorage = transform.isIdentity ? .identity : .matrix(transform)
        self.alpha = alpha
        self.zIndex = zIndex
        self.isHidden = isHidden
    }

    @inlinable public var indexPath: IndexPath { element.indexPath }

    /// The centre of the frame; setting it moves the frame, as in UIKit.
    public var center: Point {
        get { frame.center }
        set { frame.origin = Point(x: newValue.x - frame.size.width / 2, y: newValue.y - frame.size.height / 2) }
    }

    /// The frame's size; setting it keeps the centre, as in UIKit.
    public var size: Size {
        get { frame.size }
        set {
            let c = center
            frame = Rect(x: c.x - newValue.width / 2, y: c.y - newValue.height / 2, width: newValue.width, height: newValue.height)
        }
    }

    /// The element in its own coordinate space: origin zero, the element's size.
    public var bounds: Rect { Rect(origin: .zero, size: size) }

    /// The four corners of the frame after the transform (about the centre), clockwise from top-left.
    public var transformedCorners: [Point] {
        let hw = size.width / 2, hh = size.height / 2
        return [Point(-hw, -hh), Point(hw, -hh), Point(hw, hh), Point(-hw, hh)].map {
            hasTransform ? center + transform.apply(to: $0) : center + $0
        }
    }

    /// The axis-aligned box holding the transformed element (its frame when untransformed).
    public var visualBounds: Rect {
        if !hasTransform { return frame }
        let corners = transformedCorners
        var r = Rect(origin: corners[0], size: .zero)
        for c in corners.dropFirst() { r = r.union(Rect(origin: c, size: .zero)) }
        return r
    }

    /// The attributes part way to `other`: centre, size and alpha linearly, the transform by
    /// decomposition; z-index and hidden take the target's values at once, as non-animatable
    /// view properties do when a UIKit animation starts. Progress past 0…1 (a spring's
    /// overshoot) extrapolates position and size; alpha stays within 0…1 and the transform
    /// within its two ends.
    public func interpolated(to other: LayoutAttributes, progress t: Double) -> LayoutAttributes {
        if t == 0 { return self }
        var result = other
        result.interpolate(from: self, to: other, progress: t)
        return result
    }

    /// Becomes `from.interpolated(to: other, progress: t)` in place: an animation step writes
    /// what moves into the view's attributes instead of building new ones and copying them in
    /// (each copy of attributes is a value-witness call: the transform is boxed).
    public mutating func interpolate(from: LayoutAttributes, to other: LayoutAttributes, progress t: Double) {
        if t == 0 { return self = from }
        if t == 1 { return self = other }
        element = other.element
        zIndex = other.zIndex
        isHidden = other.isHidden
        // Origin and size move linearly, so the centre does too.
        frame = Rect(origin: from.frame.origin.interpolated(to: other.frame.origin, t),
                     size: from.frame.size.interpolated(to: other.frame.size, t))
        alpha = min(1, max(0, from.alpha + (other.alpha - from.alpha) * t))
        if from.transformStorage != other.transformStorage {
            transform = from.transform.interpolated(to: other.transform, progress: min(1, max(0, t)))
        } else if transformStorage != other.transformStorage {
            transformStorage = other.transformStorage
        }
    }
}

/// How attributes hold their transform (see `LayoutAttributes.transformStorage`).
@usableFromInline enum TransformStorage: Hashable, Sendable {
    case identity
    indirect case matrix(Transform3D)
}
