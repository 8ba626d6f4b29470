import TrellisCore

/// Writes the protocol's domain values straight into a byte buffer (no intermediate
/// JSONValue on the per-frame path): elements, attributes, scenes, frame deltas, update results.
public enum WireEncoding {
    public static func writeElement(_ element: ElementID, itemID: ItemID?, into b: inout ByteBuffer) {
        var o = JSONObjectWriter(into: &b)
        o.field("kind", element.kind.category, into: &b)
        o.field("section", element.indexPath.section, into: &b)
        if element.isCell || element.bodyNumber != nil {
            // A body's number stands where a cell's item index does, its name where the item id does.
            o.field("item", element.bodyNumber ?? element.indexPath.item, into: &b)
            if let itemID { o.field("id", itemID.rawValue, into: &b) }
        } else if let kind = element.kind.elementKind {
            // A supplementary view's item tells an item's badges apart (0 for a section's own).
            if element.kind.category == "supplementary" { o.field("item", element.indexPath.item, into: &b) }
            o.field("elementKind", kind, into: &b)
        }
        o.end(into: &b)
    }

    /// Decimal places of geometry on the wire: 1/1000 point, three thousandths of a pixel on a
    /// 3× screen. Scenes, frames and attributes all round the same way, so a viewer that
    /// applies frames still holds exactly what `query.scene` returns.
    public static let geometryPlaces = 3
    /// Decimal places of alpha and transform entries (a perspective `m34` of -1/2000 keeps
    /// three significant digits).
    public static let unitPlaces = 6

    // Rects, points and sizes are written without building an array first: every view of
    // every frame has a frame, and an array per rect was a heap allocation per view.
    public static func writeRect(_ r: Rect, into b: inout ByteBuffer) {
        b.appendScratch(maximumCount: ScratchWriter.rectBytes) { $0.rect(r) }
    }

    static func writePair(_ x: Double, _ y: Double, into b: inout ByteBuffer) {
        b.appendScratch(maximumCount: ScratchWriter.rectBytes) { $0.pair(x, y) }
    }

    /// A transform's 16 entries, row-major.
    public static func writeTransform(_ t: Transform3D, into b: inout ByteBuffer) {
        b.appendScratch(maximumCount: ScratchWriter.transformBytes) { $0.transform(t) }
    }

    static func writeAlpha(_ alpha: Double, _ o: inout JSONObjectWriter, into b: inout ByteBuffer) {
        o.key("alpha", into: &b)
        JSONWriter.writeRounded(alpha, places: unitPlaces, into: &b)
    }

    public static func writePoint(_ p: Point, into b: inout ByteBuffer) { writePair(p.x, p.y, into: &b) }
    public static func writeSize(_ s: Size, into b: inout ByteBuffer) { writePair(s.width, s.height, into: &b) }

    /// The attribute fields shared by `query.attributes` and scene views.
    static func writeAttributeFields(_ a: LayoutAttributes, _ o: inout JSONObjectWriter, into b: inout ByteBuffer) {
        o.key("frame", into: &b); writeRect(a.frame, into: &b)
        writeAlpha(a.alpha, &o, into: &b)
        o.field("zIndex", a.zIndex, into: &b)
        o.field("hidden", a.isHidden, into: &b)
        if a.hasTransform { o.key("transform", into: &b); writeTransform(a.transform, into: &b) }
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
        if let data = v.data { o.key("data", into: &b); data.write(into: &b) }
        o.end(into: &b)
    }

    /// Milliseconds, as the protocol counts time.
    public static func milliseconds(_ seconds: Double) -> Double { (seconds * 1000 * 1000).rounded() / 1000 }

    /// `{time, contentOffset, contentSize, bounds, views:[…], orthogonal?:[{section, offset}]}`
    /// (time in milliseconds; `orthogonal` only when a section was scrolled across).
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
        if !scene.orthogonalOffsets.isEmpty {
            o.key("orthogonal", into: &b)
            writeOrthogonalOffsets(scene.orthogonalOffsets, into: &b)
        }
        o.end(into: &b)
    }

    /// `[{section, offset}, …]` in section order: the scrolled orthogonal sections of a scene or
    /// a frame.
    public static func writeOrthogonalOffsets(_ offsets: [Int: Double], into b: inout ByteBuffer) {
        var list = JSONArrayWriter(into: &b)
        for (section, offset) in offsets.sorted(by: { $0.key < $1.key }) {
            list.element(into: &b)
            var entry = JSONObjectWriter(into: &b)
            entry.field("section", section, into: &b)
            entry.field("offset", offset, into: &b)
            entry.end(into: &b)
        }
        list.end(into: &b)
    }

    /// One `changed` entry: `{"view"}` and the `fields` that changed, with `view`'s values,
    /// after a comma when `separated`. The fixed-size fields, and the closing brace when
    /// nothing else follows (nearly always), go through one scratch write: this runs for every
    /// moving view of every frame, and each append to the buffer cost as much as a number.
    static func writeChanged(_ fields: ChangedFields, of view: UnsafePointer<SceneView>, order: Int, separated: Bool,
                             into b: inout ByteBuffer) {
        let closed = fields.isSubset(of: ChangedFields.attributes)
        // Fields are read through the pointer: a `let` of the view would copy it.
        b.appendScratch(maximumCount: ScratchWriter.changedFieldsBytes) { w in
            if separated { w.byte(UInt8(ascii: ",")) }
            w.raw("{\"view\":")
            w.int(view.pointee.view.rawValue)
            if fields.contains(.frame) { w.raw(",\"frame\":"); w.rect(view.pointee.attributes.frame) }
            if fields.contains(.alpha) { w.raw(",\"alpha\":"); w.rounded(view.pointee.attributes.alpha, places: unitPlaces) }
            if fields.contains(.zIndex) { w.raw(",\"zIndex\":"); w.int(view.pointee.attributes.zIndex) }
            if fields.contains(.hidden) { w.raw(view.pointee.attributes.isHidden ? ",\"hidden\":true" : ",\"hidden\":false") }
            if fields.contains(.transform) { w.raw(",\"transform\":"); w.transform(view.pointee.attributes.transform) }
            if closed { w.byte(UInt8(ascii: "}")) }
        }
        guard !closed else { return }
        // A new element always carries its item id, so the pair travels together.
        if fields.contains(.element) {
            b.append(",\"element\":")
            writeElement(view.pointee.element, itemID: view.pointee.itemID, into: &b)
        } else if fields.contains(.itemID) {
            b.append(",\"id\":")
            if let id = view.pointee.itemID { JSONWriter.writeString(id.rawValue, into: &b) } else { JSONWriter.writeNull(into: &b) }
        }
        if fields.contains(.data) {
            b.append(",\"data\":")
            if let data = view.pointee.data { data.write(into: &b) } else { JSONWriter.writeNull(into: &b) }
        }
        if fields.contains(.order) {
            b.append(",\"order\":")
            JSONWriter.writeInt(order, into: &b)
        }
        b.append(UInt8(ascii: "}"))
    }

    /// A point or a velocity as `[x, y]`.
    public static func pair(_ p: Point) -> JSONValue { .array([.number(p.x), .number(p.y)]) }

    public static func indexPath(_ ip: IndexPath) -> JSONValue { .array([.number(Double(ip.section)), .number(Double(ip.item))]) }

    /// A selection callback as `{event, at, id}`.
    public static func selectionEvent(_ e: SelectionEvent) -> JSONValue {
        .object(["event": .string(e.kind.rawValue), "at": indexPath(e.indexPath), "id": .string(e.item.rawValue)])
    }
}

/// The wire's geometry through a `ScratchWriter`, rounded as `WireEncoding` says.
extension ScratchWriter {
    /// Room for `[x,y,w,h]`.
    static let rectBytes = 2 + 4 * (maximumNumberBytes + 1)
    /// Room for 16 numbers in brackets.
    static let transformBytes = 2 + 16 * (maximumNumberBytes + 1)
    /// Room for everything `writeChanged` puts in its scratch: a comma, keys, view id, frame,
    /// alpha, zIndex, hidden, transform and a brace.
    static let changedFieldsBytes = 80 + 3 * maximumNumberBytes + rectBytes + transformBytes

    mutating func rect(_ r: Rect) {
        byte(UInt8(ascii: "["))
        rounded(r.minX, places: WireEncoding.geometryPlaces); byte(UInt8(ascii: ","))
        rounded(r.minY, places: WireEncoding.geometryPlaces); byte(UInt8(ascii: ","))
        rounded(r.width, places: WireEncoding.geometryPlaces); byte(UInt8(ascii: ","))
        rounded(r.height, places: WireEncoding.geometryPlaces)
        byte(UInt8(ascii: "]"))
    }

    mutating func pair(_ x: Double, _ y: Double) {
        byte(UInt8(ascii: "["))
        rounded(x, places: WireEncoding.geometryPlaces); byte(UInt8(ascii: ","))
        rounded(y, places: WireEncoding.geometryPlaces)
        byte(UInt8(ascii: "]"))
    }

    mutating func transform(_ t: Transform3D) {
        byte(UInt8(ascii: "["))
        // A homogeneous tuple is laid out as a C array: the entries in order, no array allocated
        // (a carousel writes a transform for every view of every frame).
        let entries = (t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24,
                       t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44)
        withUnsafeBytes(of: entries) { raw in
            for (i, v) in raw.bindMemory(to: Double.self).enumerated() {
                if i > 0 { byte(UInt8(ascii: ",")) }
                rounded(v, places: WireEncoding.unitPlaces)
            }
        }
        byte(UInt8(ascii: "]"))
    }
}
