/// What the debug layer holds at one moment, as the server builds it every frame and keeps what
/// viewers hold: the scene's shapes whole (scroll, bounds, boundaries, fields, forces, joints,
/// snaps: few, and in groups before the items'), then one plain record per dynamic item and per
/// contact (thousands in a pile), so that building and comparing them allocates nothing per shape.
/// In id order its shapes are `shapes`, then each item's (`DebugItemRecord`), then the contacts.
public struct DebugLayerContents: Sendable {
    /// Shapes kept whole, sorted by id.
    public var shapes: [DebugShape] = []
    /// One per item, sorted by owner.
    public var items: [DebugItemRecord] = []
    /// Sorted by (first, part), each once.
    public var contacts: [DebugContactRecord] = []
    /// The contact tracker's touches the contacts were made from: while the tracker keeps the
    /// same array (nothing began or ended), the contacts are not made again.
    var contactsSource: ContactTracker.Touches?

    public init() {}

    /// A layer of shapes only (any ids), as a keyframe or a test gives them.
    public init(shapes: [DebugShape]) { self.shapes = shapes }

    /// Empties the layer for the next build, keeping its buffers; the contacts stay with the
    /// touches they were made from (the build makes them again if those changed).
    public mutating func removeAll() {
        shapes.removeAll(keepingCapacity: true)
        items.removeAll(keepingCapacity: true)
    }

    /// No contacts (an animator with nothing in it).
    public mutating func removeContacts() {
        contacts.removeAll()
        contactsSource = nil
    }

    /// Shapes, records and contacts in all (what `stats` counts as built).
    public var count: Int { shapes.count + items.count + contacts.count }

    public var isEmpty: Bool { shapes.isEmpty && items.isEmpty && contacts.isEmpty }

    /// Every shape, in id order (a keyframe's; a frame sends only what changed).
    public var allShapes: [DebugShape] {
        var all = shapes
        all.reserveCapacity(shapes.count + 3 * items.count + contacts.count)
        for item in items { item.appendShapes(to: &all) }
        for contact in contacts { all.append(contact.shape) }
        return all
    }
}
