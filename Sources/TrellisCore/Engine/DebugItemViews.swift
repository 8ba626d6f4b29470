import TrellisDynamics

/// Which view shows each dynamic item, for the debug layer (an item's shapes are drawn on its
/// view), with what it was found from: kept from frame to frame by whoever builds the layer,
/// found again only when the bound views, the items or their elements changed
/// (`CollectionView.updateDynamicItemViews`). Holding the arrays it was found from costs a
/// copy only when they change, and they are dropped with it once no viewer asks for the layer.
public struct DebugItemViews: Sendable {
    /// By the item's index in the animator's bodies: its view's number, -1 for none.
    public private(set) var views: [Int] = []
    /// The bound elements, the items and the items' elements the views were found from.
    var keys: [ElementID] = []
    var ids: [DynamicItemID] = []
    var cells: [IndexPath: DynamicItemID] = [:]
    var bodyItems: [Int: DynamicItemID] = [:]
    /// Each shown item's bound row, whose view is checked every frame.
    var shown: [Shown] = []
    /// Found at least once (a new cache is found before it is used).
    private(set) var isValid = false

    struct Shown: Sendable {
        var row: Int
        var item: Int
    }

    public init() {}

    init(views: [Int], keys: [ElementID], ids: [DynamicItemID], cells: [IndexPath: DynamicItemID],
         bodyItems: [Int: DynamicItemID], shown: [Shown]) {
        self.views = views; self.keys = keys; self.ids = ids; self.cells = cells; self.bodyItems = bodyItems
        self.shown = shown; isValid = true
    }

    /// Each shown item's row still holds the view it had (a row given another view keeps its element).
    func viewsStillBound(_ bound: BoundViews) -> Bool {
        bound.withUnsafeRows { rows in
            shown.withUnsafeBufferPointer { shown in
                views.withUnsafeBufferPointer { views in
                    for s in shown where s.row >= rows.count || rows[s.row].view.rawValue != views[s.item] { return false }
                    return true
                }
            }
        }
    }
}
