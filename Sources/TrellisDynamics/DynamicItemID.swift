/// An item of a `DynamicAnimator`: a cell or a free body of the session, numbered by the animator.
public struct DynamicItemID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var rawValue: Int
    public init(_ rawValue: Int) { self.rawValue = rawValue }
    public static func < (a: DynamicItemID, b: DynamicItemID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "item \(rawValue)" }
}

/// A behaviour added to a `DynamicAnimator`, numbered in the order they were added.
public struct BehaviorID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var rawValue: Int
    public init(_ rawValue: Int) { self.rawValue = rawValue }
    public static func < (a: BehaviorID, b: BehaviorID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "behavior \(rawValue)" }
}
