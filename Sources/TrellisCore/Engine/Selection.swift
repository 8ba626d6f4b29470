/// UIKit's selection switches: allowsSelection (default true) and allowsMultipleSelection (default false).
public struct SelectionPolicy: Hashable, Sendable {
    public var allowsSelection = true
    public var allowsMultipleSelection = false
    public init(allowsSelection: Bool = true, allowsMultipleSelection: Bool = false) {
        self.allowsSelection = allowsSelection
        self.allowsMultipleSelection = allowsMultipleSelection
    }
}

/// One delegate callback of UIKit's tap flow, for an item.
public struct SelectionEvent: Hashable, Sendable, CustomStringConvertible {
    /// The callbacks, named as UICollectionViewDelegate's methods.
    public enum Kind: String, Hashable, Sendable {
        case shouldHighlight, didHighlight, shouldSelect, shouldDeselect, didSelect, didDeselect, didUnhighlight
    }
    public var kind: Kind
    public var indexPath: IndexPath
    public var item: ItemID

    public init(_ kind: Kind, _ indexPath: IndexPath, _ item: ItemID) {
        self.kind = kind; self.indexPath = indexPath; self.item = item
    }

    public var description: String { "\(kind.rawValue) \(indexPath) \(item)" }
}
