/// A client-given identifier of an item, unique across the whole data set.
public struct ItemID: Hashable, Comparable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public var rawValue: String
    @inlinable public init(_ rawValue: String) { self.rawValue = rawValue }
    @inlinable public init(stringLiteral value: String) { rawValue = value }
    @inlinable public static func < (a: ItemID, b: ItemID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { rawValue }
}

/// A client-given identifier of a section, unique among the sections.
public struct SectionID: Hashable, Comparable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public var rawValue: String
    @inlinable public init(_ rawValue: String) { self.rawValue = rawValue }
    @inlinable public init(stringLiteral value: String) { rawValue = value }
    @inlinable public static func < (a: SectionID, b: SectionID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { rawValue }
}

/// A stable integer id of a view (a cell, supplementary or decoration view) in the reuse system.
public struct ViewID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var rawValue: Int
    @inlinable public init(_ rawValue: Int) { self.rawValue = rawValue }
    @inlinable public static func < (a: ViewID, b: ViewID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "v\(rawValue)" }
}
