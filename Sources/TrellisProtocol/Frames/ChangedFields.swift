import TrellisCore

/// Which fields of a view differ between two frames; the one comparison rule behind both the
/// `SceneDelta` a test builds and the bytes a frame carries.
public struct ChangedFields: OptionSet, Hashable, Sendable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let frame = ChangedFields(rawValue: 1 << 0)
    public static let alpha = ChangedFields(rawValue: 1 << 1)
    public static let zIndex = ChangedFields(rawValue: 1 << 2)
    public static let hidden = ChangedFields(rawValue: 1 << 3)
    public static let transform = ChangedFields(rawValue: 1 << 4)
    /// The view shows another element (the same item at a new index path after an update);
    /// always travels with `itemID`.
    public static let element = ChangedFields(rawValue: 1 << 5)
    public static let itemID = ChangedFields(rawValue: 1 << 6)
    public static let data = ChangedFields(rawValue: 1 << 7)
    /// The position in drawing order.
    public static let order = ChangedFields(rawValue: 1 << 8)

    /// The fields that are the view's layout attributes.
    public static let attributes: ChangedFields = [.frame, .alpha, .zIndex, .hidden, .transform]

    /// The fields that differ between what a view showed and what it shows now, compared
    /// where they are stored (copies of whole views were most of the frame diff's cost).
    @inlinable
    public init(from shown: UnsafePointer<SceneView>, order oldOrder: Int, to view: UnsafePointer<SceneView>, order: Int) {
        self.init(from: shown, to: view.pointer(to: \.attributes)!, element: view.pointee.element, itemID: view.pointee.itemID,
                  data: view.pointee.data)
        if oldOrder != order { insert(.order) }
    }

    /// The fields but `order` that differ, against the parts the engine hands over
    /// (`SceneVisitor`) for a view that kept its position in drawing order.
    @inlinable
    public init(from shown: UnsafePointer<SceneView>, to attributes: UnsafePointer<LayoutAttributes>, element: ElementID,
                itemID: ItemID?, data: ItemPayload?) {
        var fields: ChangedFields = []
        if shown.pointee.attributes.frame != attributes.pointee.frame { fields.insert(.frame) }
        if shown.pointee.attributes.alpha != attributes.pointee.alpha { fields.insert(.alpha) }
        if shown.pointee.attributes.zIndex != attributes.pointee.zIndex { fields.insert(.zIndex) }
        if shown.pointee.attributes.isHidden != attributes.pointee.isHidden { fields.insert(.hidden) }
        if !shown.pointee.attributes.hasSameTransform(as: attributes.pointee) { fields.insert(.transform) }
        if shown.pointee.element != element { fields.formUnion([.element, .itemID]) }
        if shown.pointee.itemID != itemID { fields.insert(.itemID) }
        if shown.pointee.data != data { fields.insert(.data) }
        self = fields
    }
}
