import TrellisGeometry

/// A free body: a named view that is not a data item (an info panel, a dropped card), with a
/// size, a reuse identifier and a payload, drawn as any view is. Where it is while no behaviour
/// acts on it; while one does, the animator holds its centre and angle.
public struct FreeBody: Hashable, Sendable {
    public var name: String
    /// Its element's number (`ElementID.body(number)`), in the order bodies were added.
    public var number: Int
    public var center: Point
    public var size: Size
    /// Radians, clockwise on screen.
    public var angle: Double
    public var reuseIdentifier: String
    public var data: ItemPayload?
    public var zIndex: Int

    public static let defaultReuseIdentifier = "body"

    public init(name: String, number: Int, center: Point, size: Size, angle: Double = 0,
                reuseIdentifier: String = FreeBody.defaultReuseIdentifier, data: ItemPayload? = nil, zIndex: Int = 0) {
        self.name = name; self.number = number; self.center = center; self.size = size; self.angle = angle
        self.reuseIdentifier = reuseIdentifier; self.data = data; self.zIndex = zIndex
    }

    public var element: ElementID { .body(number) }
}
