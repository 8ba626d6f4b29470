extension CollectionView {
    /// The index paths of the selected items, in selection order.
    public var selectedIndexPaths: [IndexPath] {
        guard !selectedItems.isEmpty else { return [] }
        var wanted = Set(selectedItems), found: [ItemID: IndexPath] = [:]
        outer: for (s, section) in data.sections.enumerated() {
            for (i, item) in section.items.enumerated() where wanted.remove(item.id) != nil {
                found[item.id] = IndexPath(s, i)
                if wanted.isEmpty { break outer }
            }
        }
        return selectedItems.compactMap { found[$0] }
    }

    /// A tap at `point` (content coordinates, as UIKit's gesture location in the collection view):
    /// hit-tests the scene and runs UIKit's touch flow on the cell hit, in the order of
    /// UICollectionView.h: shouldHighlight, didHighlight (touch down); shouldSelect or
    /// shouldDeselect, didDeselect of the previous item (single selection), didSelect or
    /// didDeselect, didUnhighlight (touch up). The delegate's "should" answers are always yes
    /// here. Returns the element hit (nil for empty space, which changes nothing) and the events.
    @discardableResult
    public mutating func tap(at point: Point) -> (hit: SceneView?, events: [SelectionEvent]) {
        guard let hit = hitTest(point) else { return (nil, []) }
        guard hit.element.isCell, let item = hit.itemID, selectionPolicy.allowsSelection else { return (hit, []) }
        let ip = hit.indexPath
        var events = [SelectionEvent(.shouldHighlight, ip, item), SelectionEvent(.didHighlight, ip, item)]
        let wasSelected = selectedItems.contains(item)
        if selectionPolicy.allowsMultipleSelection && wasSelected {
            events.append(SelectionEvent(.shouldDeselect, ip, item))
            selectedItems.removeAll { $0 == item }
            events.append(SelectionEvent(.didDeselect, ip, item))
        } else {
            events.append(SelectionEvent(.shouldSelect, ip, item))
            if !selectionPolicy.allowsMultipleSelection {
                let previous = selectedIndexPaths.enumerated().map { (selectedItems[$0.offset], $0.element) }
                for (other, otherPath) in previous where other != item {
                    events.append(SelectionEvent(.didDeselect, otherPath, other))
                }
                selectedItems.removeAll { $0 != item }
            }
            if !selectedItems.contains(item) { selectedItems.append(item) }
            events.append(SelectionEvent(.didSelect, ip, item))
        }
        events.append(SelectionEvent(.didUnhighlight, ip, item))
        pendingEvents.append(contentsOf: events.map { .selection($0) })
        pendingEvents.append(.selectionChanged(selected: selectedItems))
        return (hit, events)
    }

    /// selectItem(at:): selects without delegate callbacks; in single selection the previous
    /// selection is replaced.
    public mutating func select(_ indexPath: IndexPath) throws(EngineError) {
        guard selectionPolicy.allowsSelection else { throw .selectionNotAllowed }
        let item = try itemID(at: indexPath)
        let before = selectedItems
        if !selectionPolicy.allowsMultipleSelection { selectedItems.removeAll { $0 != item } }
        if !selectedItems.contains(item) { selectedItems.append(item) }
        if selectedItems != before { pendingEvents.append(.selectionChanged(selected: selectedItems)) }
    }

    /// deselectItem(at:): deselects without delegate callbacks.
    public mutating func deselect(_ indexPath: IndexPath) throws(EngineError) {
        let item = try itemID(at: indexPath)
        guard selectedItems.contains(item) else { return }
        selectedItems.removeAll { $0 == item }
        pendingEvents.append(.selectionChanged(selected: selectedItems))
    }

    /// selectItem(at: nil): clears the selection.
    public mutating func deselectAll() {
        guard !selectedItems.isEmpty else { return }
        selectedItems.removeAll()
        pendingEvents.append(.selectionChanged(selected: []))
    }

    /// Turns allowsSelection / allowsMultipleSelection on or off. Leaving multiple selection keeps
    /// only the most recent item; turning selection off clears it.
    public mutating func setSelectionPolicy(_ policy: SelectionPolicy) {
        selectionPolicy = policy
        let before = selectedItems
        if !policy.allowsSelection { selectedItems.removeAll() }
        else if !policy.allowsMultipleSelection, let last = selectedItems.last { selectedItems = [last] }
        if selectedItems != before { pendingEvents.append(.selectionChanged(selected: selectedItems)) }
    }

    func itemID(at indexPath: IndexPath) throws(EngineError) -> ItemID {
        guard data.contains(indexPath) else {
            throw .itemOutOfRange(indexPath, sections: data.numberOfSections,
                                  items: indexPath.section >= 0 && indexPath.section < data.numberOfSections
                                      ? data.numberOfItems(inSection: indexPath.section) : nil)
        }
        return data.id(at: indexPath)
    }
}
