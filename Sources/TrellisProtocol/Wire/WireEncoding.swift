import TrellisCore

/// Writes the protocol's domain values straight into a byte buffer (no intermediate
/// JSONValue on the per-frame path): elements, attributes, scenes, frame deltas, update results.
public enum WireEncoding {
    public static func writeElement(_ element: ElementID, itemID: ItemID?, into b: inout ByteBuffer) {
        var o = JSONObjectWriter(into: &b)
        o.field("kind", element.kind.category, into: &b)
        o.field("section", element.indexPath.section, into: &b)
        if element.isCell {
            o.field("item", element.indexPath.item, into: &b)
            if let itemID { o.field("id", itemID.rawValue, into: &b) }
        } else if let kind = element.kind.elementKind {
            o.field("elementKind", kind, into: &b)
        }
        o.end(into: &b)
    }

    // Rects, points and sizes are written without building an array first: every view of
    // every frame has a frame, and an array per rect was a heap allocation per view.
    public static func writeRect(_ r: Rect, into b: inout ByteBuffer) {
        var a = JSONArrayWriter(into: &b)
        a.element(into: &b); JSONWriter.writeNumber(r.minX, into: &b)
        a.element(into: &b); JSONWriter.writeNumber(r.minY, into: &b)
        a.element(into: &b); JSONWriter.writeNumber(r.width, into: &b)
        a.element(into: &b); JSONWriter.writeNumber(r.height, into: &b)
        a.end(into: &b)
    }

    static func writePair(_ x: Double, _ y: Double, into b: inout ByteBuffer) {
        var a = JSONArrayWriter(into: &b)
        a.element(into: &b); JSONWriter.writeNumber(x, into: &b)
        a.element(into: &b); JSONWriter.writeNumber(y, into: &b)
        a.end(into: &b)
    }

    public static func writeNumbers(_ values: [Double], into b: inout ByteBuffer) {
        var a = JSONArrayWriter(into: &b)
        for v in values { a.element(into: &b); JSONWriter.writeNumber(v, into: &b) }
        a.end(into: &b)
    }

    public static func writePoint(_ p: Point, into b: inout ByteBuffer) { writePair(p.x, p.y, into: &b) }
    public static func writeSize(_ s: Size, into b: inout ByteBuffer) { writePair(s.width, s.height, into: &b) }

    /// The attribute fields shared by `query.attributes` and scene views.
    static func writeAttributeFields(_ a: LayoutAttributes, _ o: inout JSONObjectWriter, into b: inout ByteBuffer) {
        o.key("frame", into: &b); writeRect(a.frame, into: &b)
        o.field("alpha", a.alpha, into: &b)
        o.field("zIndex", a.zIndex, into: &b)
        o.field("hidden", a.isHidden, into: &b)
        if !a.transform.isIdentity { o.key("transform", into: &b); writeNumbers(a.transform.values, into: &b) }
    }

    /// `{element, frame, alpha, zIndex, hidden, transform?}`.
    public static func writeAttributes(_ a: LayoutAttributes, itemID: ItemID?, into b: inout ByteBuffer) {
        var o = JSONObjectWriter(into: &b)
        o.key("element", into: &b); writeElement(a.element, itemID: itemID, into: &b)
        writeAttributeFields(a, &o, into: &b)
        o.end(into: &b)
    }

    /// `{view, reuseId, element, frame, alpha, zIndex, hidden, transform?, data?}`; `order` when given.
    public static func writeSceneView(_ v: SceneView, order: Int? = nil, into b: inout ByteBuffer) {
        var o = JSONObjectWriter(into: &b)
        o.field("view", v.view.rawValue, into: &b)
        o.field("reuseId", v.reuseIdentifier, into: &b)
        if let order { o.field("order", order, into: &b) }
        o.key("element", into: &b); writeElement(v.element, itemID: v.itemID, into: &b)
        writeAttributeFields(v.attributes, &o, into: &b)
        if let data = v.data { o.field("data", data, into: &b) }
        o.end(into: &b)
    }

    /// Milliseconds, as the protocol counts time.
    public static func milliseconds(_ seconds: Double) -> Double { (seconds * 1000 * 1000).rounded() / 1000 }

    /// `{time, contentOffset, contentSize, bounds, views:[…]}` (time in milliseconds).
    public static func writeScene(_ scene: Scene, into b: inout ByteBuffer) {
        var o = JSONObjectWriter(into: &b)
        o.field("time", milliseconds(scene.time), into: &b)
        o.key("contentOffset", into: &b); writePoint(scene.contentOffset, into: &b)
        o.key("contentSize", into: &b); writeSize(scene.contentSize, into: &b)
        o.key("bounds", into: &b); writeSize(scene.boundsSize, into: &b)
        o.key("views", into: &b)
        var a = JSONArrayWriter(into: &b)
        for v in scene.views { a.element(into: &b); writeSceneView(v, into: &b) }
        a.end(into: &b)
        o.end(into: &b)
    }

    /// The body of a `frame` notification's params after `session` and `seq`.
    public static func writeDeltaFields(_ d: SceneDelta, _ o: inout JSONObjectWriter, into b: inout ByteBuffer) {
        o.field("time", milliseconds(d.time), into: &b)
        if let p = d.contentOffset { o.key("contentOffset", into: &b); writePoint(p, into: &b) }
        if let s = d.contentSize { o.key("contentSize", into: &b); writeSize(s, into: &b) }
        if let s = d.boundsSize { o.key("bounds", into: &b); writeSize(s, into: &b) }
        if !d.created.isEmpty {
            o.key("created", into: &b)
            var a = JSONArrayWriter(into: &b)
            for c in d.created {
                a.element(into: &b)
                var co = JSONObjectWriter(into: &b)
                co.field("view", c.view.rawValue, into: &b)
                co.field("reuseId", c.reuseIdentifier, into: &b)
                co.end(into: &b)
            }
            a.end(into: &b)
        }
        if !d.bound.isEmpty {
            o.key("bound", into: &b)
            var a = JSONArrayWriter(into: &b)
            for v in d.bound { a.element(into: &b); writeSceneView(v.view, order: v.order, into: &b) }
            a.end(into: &b)
        }
        if !d.changed.isEmpty {
            o.key("changed", into: &b)
            var a = JSONArrayWriter(into: &b)
            for c in d.changed {
                a.element(into: &b)
                var co = JSONObjectWriter(into: &b)
                co.field("view", c.view.rawValue, into: &b)
                if let f = c.frame { co.key("frame", into: &b); writeRect(f, into: &b) }
                if let v = c.alpha { co.field("alpha", v, into: &b) }
                if let v = c.zIndex { co.field("zIndex", v, into: &b) }
                if let v = c.isHidden { co.field("hidden", v, into: &b) }
                if let t = c.transform { co.key("transform", into: &b); writeNumbers(t.values, into: &b) }
                if let e = c.element { co.key("element", into: &b); writeElement(e, itemID: c.itemID ?? nil, into: &b) }
                else if let id = c.itemID { co.key("id", into: &b); if let id { JSONWriter.writeString(id.rawValue, into: &b) } else { JSONWriter.writeNull(into: &b) } }
                if let d = c.data { co.field("data", d ?? .null, into: &b) }
                if let v = c.order { co.field("order", v, into: &b) }
                co.end(into: &b)
            }
            a.end(into: &b)
        }
        for (key, ids) in [("unbound", d.unbound), ("destroyed", d.destroyed)] where !ids.isEmpty {
            o.key(key, into: &b)
            var a = JSONArrayWriter(into: &b)
            for id in ids { a.element(into: &b); JSONWriter.writeInt(id.rawValue, into: &b) }
            a.end(into: &b)
        }
    }

    public static func indexPath(_ ip: IndexPath) -> JSONValue { .array([.number(Double(ip.section)), .number(Double(ip.item))]) }

    /// `{update, mapping, inserted, deleted, moved, reloaded, …}` for a performed batch. The
    /// mapping lists `[old, new]` pairs for every surviving item that changed index path.
    public static func updateResult(_ r: UpdateResult, update: Int, oldData: CollectionData) -> JSONValue {
        func paths(_ s: Set<IndexPath>) -> JSONValue { .array(s.sorted().map(indexPath)) }
        func pairs(_ s: Set<UpdateResult.Change<IndexPath>>) -> JSONValue {
            .array(s.sorted { $0.before < $1.before }.map { .array([indexPath($0.before), indexPath($0.after)]) })
        }
        var mapping: [JSONValue] = []
        for (s, section) in oldData.sections.enumerated() {
            for i in 0..<section.count {
                let old = IndexPath(s, i)
                if let new = r.newIndexPath(for: old), new != old { mapping.append(.array([indexPath(old), indexPath(new)])) }
            }
        }
        func ints(_ s: Set<Int>) -> JSONValue { .array(s.sorted().map { .number(Double($0)) }) }
        return .object([
            "update": .number(Double(update)),
            "mapping": .array(mapping),
            "inserted": paths(r.inserted),
            "deleted": paths(r.deleted),
            "moved": pairs(r.moved),
            "reloaded": pairs(r.reloaded),
            "insertedSections": ints(r.insertedSections),
            "deletedSections": ints(r.deletedSections),
            "movedSections": .array(r.movedSections.sorted { $0.before < $1.before }.map { .array([.number(Double($0.before)), .number(Double($0.after))]) }),
            "reloadedSections": .array(r.reloadedSections.sorted { $0.before < $1.before }.map { .array([.number(Double($0.before)), .number(Double($0.after))]) }),
        ])
    }

    /// A selection callback as `{event, at, id}`.
    public static func selectionEvent(_ e: SelectionEvent) -> JSONValue {
        .object(["event": .string(e.kind.rawValue), "at": indexPath(e.indexPath), "id": .string(e.item.rawValue)])
    }
}
