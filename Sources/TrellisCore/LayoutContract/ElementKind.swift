/// What an element is: a cell showing an item, a supplementary view (header, footer, …) or a
/// decoration view (a section background, …), as UICollectionElementCategory plus its kind string.
public enum ElementKind: Hashable, Sendable, Comparable, CustomStringConvertible {
    case cell
    case supplementary(ElementKindName)
    case decoration(ElementKindName)
    /// A free dynamic body: a named view that is not a data item (an info panel, a dropped
    /// card), placed by the dynamics alone. Its index path is (0, the body's number).
    case body

    /// The flow layout's section header kind (UIKit: UICollectionElementKindSectionHeader).
    public static let header = ElementKind.supplementary("header")
    /// The flow layout's section footer kind (UIKit: UICollectionElementKindSectionFooter).
    public static let footer = ElementKind.supplementary("footer")
    /// The flow layout's optional per-section background decoration.
    public static let sectionBackground = ElementKind.decoration("background")

    /// "cell", "supplementary" or "decoration", as the protocol names the category.
    public var category: String {
        switch self {
        case .cell: return "cell"
        case .supplementary: return "supplementary"
        case .decoration: return "decoration"
        case .body: return "body"
        }
    }

    /// The kind string of a supplementary or decoration element; nil for cells (as UIKit's representedElementKind).
    public var elementKind: String? {
        switch self {
        case .cell, .body: return nil
        case .supplementary(let k), .decoration(let k): return k.rawValue
        }
    }

    public var description: String {
        switch self {
        case .cell: return "cell"
        case .supplementary(let k): return "supplementary(\(k))"
        case .decoration(let k): return "decoration(\(k))"
        case .body: return "body"
        }
    }
}

/// One element of a layout: its kind and index path (for a header, the item is 0).
public struct ElementID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var kind: ElementKind
    public var indexPath: IndexPath

    @inlinable public init(kind: ElementKind, indexPath: IndexPath) { self.kind = kind; self.indexPath = indexPath }

    @inlinable public static func cell(_ indexPath: IndexPath) -> ElementID { ElementID(kind: .cell, indexPath: indexPath) }
    @inlinable public static func cell(_ section: Int, _ item: Int) -> ElementID { .cell(IndexPath(section, item)) }
    public static func header(_ section: Int) -> ElementID { ElementID(kind: .header, indexPath: IndexPath(section, 0)) }
    public static func footer(_ section: Int) -> ElementID { ElementID(kind: .footer, indexPath: IndexPath(section, 0)) }
    public static func sectionBackground(_ section: Int) -> ElementID {
        ElementID(kind: .sectionBackground, indexPath: IndexPath(section, 0))
    }

    @inlinable public var isCell: Bool { kind == .cell }

    /// The element of the free body numbered `number` in its session.
    @inlinable public static func body(_ number: Int) -> ElementID { ElementID(kind: .body, indexPath: IndexPath(0, number)) }

    /// The free body's number, when this is a body's element; nil for every other element. A
    /// body has no index path: its number is kept in the item slot only so that ElementID stays
    /// three words in the binding tables. Read it here and write it with `body(_:)`, never
    /// through `indexPath`.
    @inlinable public var bodyNumber: Int? { kind == .body ? indexPath.item : nil }

    public static func < (a: ElementID, b: ElementID) -> Bool {
        a.indexPath != b.indexPath ? a.indexPath < b.indexPath : a.kind < b.kind
    }

    public var description: String { "\(kind) \(indexPath)" }
}
