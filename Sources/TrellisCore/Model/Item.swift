/// One item of the data: its identifier, an optional size (the layout's default when nil),
/// the reuse identifier of the cell that shows it, and an opaque payload for viewers.
public struct Item: Hashable, Sendable {
    public var id: ItemID
    public var size: Size?
    public var reuseIdentifier: String
    public var data: ItemPayload?

    /// UIKit's cells have no default identifier; ours is "cell" so generated data needs none.
    public static let defaultReuseIdentifier = "cell"

    public init(id: ItemID, size: Size? = nil, reuseIdentifier: String = Item.defaultReuseIdentifier,
                data: ItemPayload? = nil) {
        self.id = id; self.size = size; self.reuseIdentifier = reuseIdentifier; self.data = data
    }
}
