import TrellisCore

/// How a batch reply lists where surviving items went (`params.mapping` of `batch` and
/// `data.apply`; PROTOCOL.md, "Update results").
public enum MappingForm: String, Sendable, CaseIterable {
    /// `[[old, new, count], …]`: runs of items that shifted together, O(changes). The default.
    case ranges
    /// `[[old, new], …]`: one pair per item whose index path changed, O(items that shifted).
    case items

    /// The form `params.mapping` names; `ranges` when it is absent.
    public static func from(_ params: JSONValue) throws(ParamError) -> MappingForm {
        guard let value = params.field("mapping"), value != .null else { return .ranges }
        guard case .string(let name) = value, let form = MappingForm(rawValue: name) else {
            let found = if case .string(let name) = value { "\"\(name)\"" } else { value.kindDescription }
            throw ParamError(path: "params.mapping", .mismatch(
                expected: "\"ranges\" (runs [old, new, count], the default) or \"items\" (one [old, new] per item)",
                found: found))
        }
        return form
    }
}

extension WireEncoding {
    /// `{deleted, deletedSections, inserted, insertedSections, mapping, moved, movedSections,
    /// reloaded, reloadedSections, update}` for a performed batch, written straight into bytes.
    /// `mapping` lists every surviving item whose index path changed, in `form`; both are read
    /// off the result's runs, so the ranges cost O(changes) however many items the data holds.
    public static func writeUpdateResult(_ r: UpdateResult, update: Int, mapping form: MappingForm,
                                         into b: inout ByteBuffer) {
        var o = JSONObjectWriter(into: &b)
        o.key("deleted", into: &b); writePaths(r.deleted.sorted(), into: &b)
        o.key("deletedSections", into: &b); writeInts(r.deletedSections.sorted(), into: &b)
        o.key("inserted", into: &b); writePaths(r.inserted.sorted(), into: &b)
        o.key("insertedSections", into: &b); writeInts(r.insertedSections.sorted(), into: &b)
        o.key("mapping", into: &b); writeMapping(r.changedPathRuns(), form: form, into: &b)
        o.key("moved", into: &b); writePathChanges(r.moved.sorted { $0.before < $1.before }, into: &b)
        o.key("movedSections", into: &b); writeSectionChanges(r.movedSections, into: &b)
        o.key("reloaded", into: &b); writePathChanges(r.reloaded.sorted { $0.before < $1.before }, into: &b)
        o.key("reloadedSections", into: &b); writeSectionChanges(r.reloadedSections, into: &b)
        o.field("update", update, into: &b)
        o.end(into: &b)
    }

    /// The runs as `[[s,i],[t,j],n]` triples, or expanded to one `[[s,i],[t,j]]` per item.
    public static func writeMapping(_ runs: [ItemPathRun], form: MappingForm, into b: inout ByteBuffer) {
        b.append(UInt8(ascii: "["))
        var first = true
        for run in runs {
            switch form {
            case .ranges:
                b.appendScratch(maximumCount: 16 + 5 * ScratchWriter.maximumNumberBytes) { w in
                    if !first { w.byte(UInt8(ascii: ",")) }
                    w.raw("[["); w.int(run.old.section); w.byte(UInt8(ascii: ",")); w.int(run.old.item)
                    w.raw("],["); w.int(run.new.section); w.byte(UInt8(ascii: ",")); w.int(run.new.item)
                    w.raw("],"); w.int(run.count); w.byte(UInt8(ascii: "]"))
                }
                first = false
            case .items:
                for k in 0..<run.count {
                    b.appendScratch(maximumCount: 16 + 4 * ScratchWriter.maximumNumberBytes) { w in
                        if !first { w.byte(UInt8(ascii: ",")) }
                        w.raw("[["); w.int(run.old.section); w.byte(UInt8(ascii: ",")); w.int(run.old.item + k)
                        w.raw("],["); w.int(run.new.section); w.byte(UInt8(ascii: ",")); w.int(run.new.item + k)
                        w.raw("]]")
                    }
                    first = false
                }
            }
        }
        b.append(UInt8(ascii: "]"))
    }

    private static func writePath(_ p: IndexPath, into b: inout ByteBuffer) {
        b.appendScratch(maximumCount: 3 + 2 * ScratchWriter.maximumNumberBytes) { w in
            w.byte(UInt8(ascii: "[")); w.int(p.section); w.byte(UInt8(ascii: ",")); w.int(p.item); w.byte(UInt8(ascii: "]"))
        }
    }

    private static func writePaths(_ paths: [IndexPath], into b: inout ByteBuffer) {
        var a = JSONArrayWriter(into: &b)
        for p in paths { a.element(into: &b); writePath(p, into: &b) }
        a.end(into: &b)
    }

    private static func writePathChanges(_ changes: [UpdateResult.Change<IndexPath>], into b: inout ByteBuffer) {
        var a = JSONArrayWriter(into: &b)
        for c in changes {
            a.element(into: &b)
            b.append(UInt8(ascii: "[")); writePath(c.before, into: &b)
            b.append(UInt8(ascii: ",")); writePath(c.after, into: &b); b.append(UInt8(ascii: "]"))
        }
        a.end(into: &b)
    }

    private static func writeInts(_ values: [Int], into b: inout ByteBuffer) {
        var a = JSONArrayWriter(into: &b)
        for v in values { a.element(into: &b); JSONWriter.writeInt(v, into: &b) }
        a.end(into: &b)
    }

    private static func writeSectionChanges(_ changes: Set<UpdateResult.Change<Int>>, into b: inout ByteBuffer) {
        var a = JSONArrayWriter(into: &b)
        for c in changes.sorted(by: { $0.before < $1.before }) {
            a.element(into: &b)
            b.append(UInt8(ascii: "[")); JSONWriter.writeInt(c.before, into: &b)
            b.append(UInt8(ascii: ",")); JSONWriter.writeInt(c.after, into: &b); b.append(UInt8(ascii: "]"))
        }
        a.end(into: &b)
    }
}
