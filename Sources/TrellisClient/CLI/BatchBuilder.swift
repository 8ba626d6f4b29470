import TrellisCore
import TrellisProtocol

/// Builds the `ops` of a `batch` request from the CLI's operation arguments. UIKit's batch
/// semantics do not depend on the order of the calls inside performBatchUpdates, so each kind
/// becomes one operation, in a fixed order.
///
/// Items inserted into a section the same batch inserts travel inside that section: UIKit counts
/// a new section's items as part of the section insert and drops item inserts aimed at it, so
/// sending them as `insertItems` would answer success with the section left empty.
public struct BatchBuilder: Sendable {
    public var deleteSections: [Int] = []
    public var deleteItems: [IndexPath] = []
    public var reloadSections: [Int] = []
    public var reloadItems: [IndexPath] = []
    public var moveSections: [(from: Int, to: Int)] = []
    public var moveItems: [(from: IndexPath, to: IndexPath)] = []
    public var insertSections: [(index: Int, id: String)] = []
    public var insertItems: [(path: IndexPath, id: String)] = []
    /// The prefix of generated item and section ids.
    public let idPrefix: String
    private var generated = 0

    public init(idPrefix: String) { self.idPrefix = idPrefix }

    public mutating func delete(_ spec: String) throws(SyntaxError) { deleteItems += try CommandSyntax.indexPaths(spec) }
    public mutating func reload(_ spec: String) throws(SyntaxError) { reloadItems += try CommandSyntax.indexPaths(spec) }
    public mutating func move(_ spec: String) throws(SyntaxError) { moveItems.append(try CommandSyntax.move(spec)) }
    public mutating func deleteSection(_ spec: String) throws(SyntaxError) { deleteSections.append(try CommandSyntax.section(spec).index) }
    public mutating func reloadSection(_ spec: String) throws(SyntaxError) { reloadSections.append(try CommandSyntax.section(spec).index) }
    public mutating func moveSection(_ spec: String) throws(SyntaxError) { moveSections.append(try CommandSyntax.sectionMove(spec)) }

    /// `S:I=id`, or `S:I` / `S:I..J` with generated ids (`<prefix>0`, `<prefix>1`, …).
    public mutating func insert(_ spec: String) throws(SyntaxError) {
        let (paths, id) = try CommandSyntax.insertion(spec)
        for path in paths { insertItems.append((path, id ?? nextID())) }
    }

    /// `N` (a new section with a generated id) or `N=id`; it holds the items inserted at its index.
    public mutating func insertSection(_ spec: String) throws(SyntaxError) {
        let (index, id) = try CommandSyntax.section(spec)
        insertSections.append((index, id ?? "\(idPrefix)s\(nextSectionID())"))
    }

    public var isEmpty: Bool {
        deleteSections.isEmpty && deleteItems.isEmpty && reloadSections.isEmpty && reloadItems.isEmpty
            && moveSections.isEmpty && moveItems.isEmpty && insertSections.isEmpty && insertItems.isEmpty
    }

    /// The protocol's operation objects. Refused, with UIKit's text, when the items aimed at a new
    /// section do not fill it from item 0 without a gap or a repeat: the section could hold them
    /// no other way.
    public func operations() throws(UpdateError) -> [JSONValue] {
        func path(_ p: IndexPath) -> JSONValue { .array([.number(Double(p.section)), .number(Double(p.item))]) }
        func op(_ name: String, _ fields: [String: JSONValue]) -> JSONValue {
            var f = fields
            f["op"] = .string(name)
            return .object(f)
        }
        let newSections = Set(insertSections.map(\.index))
        let intoNewSections = insertItems.filter { newSections.contains($0.path.section) }
        let intoOldSections = insertItems.filter { !newSections.contains($0.path.section) }
        let sectionItems = try Self.contents(of: newSections, from: intoNewSections)
        var ops: [JSONValue] = []
        if !deleteSections.isEmpty { ops.append(op("deleteSections", ["at": .array(deleteSections.map { .number(Double($0)) })])) }
        if !deleteItems.isEmpty { ops.append(op("deleteItems", ["at": .array(deleteItems.map(path))])) }
        if !reloadSections.isEmpty { ops.append(op("reloadSections", ["at": .array(reloadSections.map { .number(Double($0)) })])) }
        if !reloadItems.isEmpty { ops.append(op("reloadItems", ["at": .array(reloadItems.map(path))])) }
        for m in moveSections { ops.append(op("moveSection", ["from": .number(Double(m.from)), "to": .number(Double(m.to))])) }
        for m in moveItems { ops.append(op("moveItem", ["from": path(m.from), "to": path(m.to)])) }
        if !insertSections.isEmpty {
            ops.append(op("insertSections", ["at": .array(insertSections.map { .number(Double($0.index)) }),
                                             "sections": .array(insertSections.map { section in
                                                 .object(["id": .string(section.id), "items": .array(sectionItems[section.index] ?? [])])
                                             })]))
        }
        if !intoOldSections.isEmpty {
            ops.append(op("insertItems", ["at": .array(intoOldSections.map { path($0.path) }),
                                          "items": .array(intoOldSections.map { GeneratedData.item($0.id) })]))
        }
        return ops
    }

    /// The items of each new section, in item order: the inserts aimed at it must be its items
    /// 0, 1, … with none missing or repeated.
    private static func contents(of sections: Set<Int>, from inserts: [(path: IndexPath, id: String)]) throws(UpdateError) -> [Int: [JSONValue]] {
        var result: [Int: [JSONValue]] = [:]
        for section in sections {
            let aimed = inserts.filter { $0.path.section == section }.sorted { $0.path.item < $1.path.item }
            for (k, insert) in aimed.enumerated() where insert.path.item != k {
                if k > 0, aimed[k - 1].path.item == insert.path.item { throw .duplicateInsertIndexPath(insert.path) }
                throw .insertItemOutOfRange(insert.path, itemCount: aimed.count)
            }
            result[section] = aimed.map { GeneratedData.item($0.id) }
        }
        return result
    }

    private mutating func nextID() -> String {
        defer { generated += 1 }
        return "\(idPrefix)\(generated)"
    }

    private var generatedSections = 0
    private mutating func nextSectionID() -> Int {
        defer { generatedSections += 1 }
        return generatedSections
    }
}
