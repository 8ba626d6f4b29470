/// NSCollectionLayoutSize: a width and a height dimension.
public struct CompositionalSize: Hashable, Sendable {
    public var width: CompositionalDimension
    public var height: CompositionalDimension

    public init(width: CompositionalDimension, height: CompositionalDimension) {
        self.width = width; self.height = height
    }

    /// Both dimensions resolved inside `container`.
    @inlinable public func resolve(in container: Size) -> Size {
        Size(width: width.resolve(in: container), height: height.resolve(in: container))
    }

    @inlinable public var transposed: CompositionalSize {
        CompositionalSize(width: height.transposed, height: width.transposed)
    }
}
