/// One data section as laid out: which solved description it uses, its item and group counts,
/// and its lengths along the scroll axis (section-local, flow space).
struct CompositionalSectionGeometry: Hashable, Sendable {
    var template: Int
    var itemCount: Int
    var groupCount: Int
    /// Where the content (top inset, groups, bottom inset) starts: after the headers that take room.
    var contentStart: Double
    var contentEnd: Double
    /// Content and the footers that take room.
    var length: Double
    /// The least and greatest y any element of the section can have (badges and offsets may
    /// stick out), for the binary search over sections.
    var extentMin: Double
    var extentMax: Double
}
