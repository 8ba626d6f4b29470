/// Where `scrollToItem` puts an item, as UICollectionView.ScrollPosition: at most one vertical
/// and one horizontal choice (raw values are UIKit's).
public struct ScrollPosition: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let top = ScrollPosition(rawValue: 1)
    public static let centeredVertically = ScrollPosition(rawValue: 2)
    public static let bottom = ScrollPosition(rawValue: 4)
    public static let left = ScrollPosition(rawValue: 8)
    public static let centeredHorizontally = ScrollPosition(rawValue: 16)
    public static let right = ScrollPosition(rawValue: 32)

    static let verticalGroup: ScrollPosition = [.top, .centeredVertically, .bottom]
    static let horizontalGroup: ScrollPosition = [.left, .centeredHorizontally, .right]

    /// The names the protocol and CLI use, in UIKit's spelling.
    public static let names: [(String, ScrollPosition)] = [
        ("top", .top), ("centeredVertically", .centeredVertically), ("bottom", .bottom),
        ("left", .left), ("centeredHorizontally", .centeredHorizontally), ("right", .right),
    ]

    /// Parses "top", "centeredVertically", … and combinations joined with "," or "|".
    public init?(names text: String) {
        var result: ScrollPosition = []
        for part in text.split(whereSeparator: { $0 == "," || $0 == "|" }) {
            guard let match = ScrollPosition.names.first(where: { $0.0 == part }) else { return nil }
            result.insert(match.1)
        }
        guard !result.isEmpty else { return nil }
        self = result
    }

    /// UIKit raises NSInvalidArgumentException for two choices on one axis; this says which.
    public var validationError: String? {
        if intersection(ScrollPosition.verticalGroup).rawValue.nonzeroBitCount > 1 {
            return "a scroll position may name only one of top, centeredVertically and bottom"
        }
        if intersection(ScrollPosition.horizontalGroup).rawValue.nonzeroBitCount > 1 {
            return "a scroll position may name only one of left, centeredHorizontally and right"
        }
        return nil
    }
}
