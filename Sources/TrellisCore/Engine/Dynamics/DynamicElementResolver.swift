import TrellisDynamics

/// Gives a behaviour being decoded the animator items of the elements it names, without
/// changing the engine: elements named before keep their item, new ones get the next numbers
/// in the order they are first named, and `CollectionView.addDynamicBehavior` commits exactly
/// those. So a behaviour that is refused while it is decoded changes nothing.
public struct DynamicElementResolver: Sendable {
    private var known: [DynamicElement: DynamicItemID]
    private var next: Int
    /// Elements named for the first time, in the order they were named.
    public private(set) var added: [(DynamicElement, DynamicItemID)] = []
    private let exists: @Sendable (DynamicElement) -> Bool
    /// Restoring a snapshot: elements named before stand even when gone since (a behaviour may
    /// still name a deleted item).
    private let keepsGoneElements: Bool
    /// Updating a behaviour: the items it names now stand even when gone since (it skips them).
    private let keeping: Set<DynamicItemID>

    init(known: [DynamicElement: DynamicItemID], next: Int, keepsGoneElements: Bool = false, keeping: Set<DynamicItemID> = [],
         exists: @escaping @Sendable (DynamicElement) -> Bool) {
        self.known = known
        self.next = next
        self.keepsGoneElements = keepsGoneElements
        self.keeping = keeping
        self.exists = exists
    }

    /// The animator item of `element`; refused when no such item or body exists.
    public mutating func id(for element: DynamicElement) throws(EngineError) -> DynamicItemID {
        if let id = known[element] {
            // Named before but gone since (a deleted item, a removed body): named again, it must
            // exist, unless the behaviour being updated already names it.
            guard keepsGoneElements || keeping.contains(id) || exists(element) else { throw .unknownDynamicElement(element) }
            return id
        }
        guard exists(element) else { throw .unknownDynamicElement(element) }
        let id = DynamicItemID(next)
        next += 1
        known[element] = id
        added.append((element, id))
        return id
    }
}
