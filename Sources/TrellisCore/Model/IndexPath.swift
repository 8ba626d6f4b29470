/// The position of an item in the data: a section and an item within it, ordered as UIKit orders them.
/// (Clients that also import Foundation write `TrellisCore.IndexPath`.)
public struct IndexPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var section: Int
    public var item: Int

    @inlinable public init(item: Int, section: Int) { self.section = section; self.item = item }
    @inlinable public init(_ section: Int, _ item: Int) { self.section = section; self.item = item }

    @inlinable public static func < (a: IndexPath, b: IndexPath) -> Bool {
        a.section != b.section ? a.section < b.section : a.item < b.item
    }

    /// `section:item`, the form the CLI and scripts use.
    public var description: String { "\(section):\(item)" }
}
