import TrellisCore

/// Each view's label and colour (`displayLabel`, `ViewColor.of`), read from its payload once and
/// kept while the view shows the same item, payload and reuse identifier: a terminal viewer
/// redraws every view each frame, and parsing each payload's JSON twice a frame per view did the
/// same work again and again. Holds only the views of the last scene drawn.
public struct ViewAppearances: Sendable {
    /// What a picture writes on a view and paints it with.
    public struct Appearance: Hashable, Sendable {
        public var label: String
        public var color: ViewColor
    }

    private struct Entry: Sendable {
        var data: ItemPayload?
        var itemID: ItemID?
        var reuseIdentifier: String
        var kind: ElementKind
        var appearance: Appearance

        func holds(_ view: SceneView) -> Bool {
            view.data == data && view.itemID == itemID && view.reuseIdentifier == reuseIdentifier && view.element.kind == kind
        }
    }

    private var entries: [ViewID: Entry] = [:]

    public init() {}

    /// The view's appearance, read again only when what it depends on changed.
    public mutating func of(_ view: SceneView) -> Appearance {
        if let entry = entries[view.view], entry.holds(view) { return entry.appearance }
        let appearance = Appearance(label: view.displayLabel, color: ViewColor.of(view))
        entries[view.view] = Entry(data: view.data, itemID: view.itemID, reuseIdentifier: view.reuseIdentifier,
                                   kind: view.element.kind, appearance: appearance)
        return appearance
    }

    /// Forgets the views `scene` does not show, so what is kept stays bounded by one scene.
    public mutating func keep(only scene: Scene) {
        guard entries.count > scene.views.count else { return }
        let shown = Set(scene.views.map(\.view))
        entries = entries.filter { shown.contains($0.key) }
    }

    /// How many views are kept (for tests).
    public var count: Int { entries.count }
}
