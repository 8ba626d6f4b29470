import TrellisCore

/// Builds the `ops` of a `batch` request from the CLI's operation arguments. UIKit's batch
/// semantics do not depend on the order of the calls inside performBatchUpdates, so each kind
/// becomes one operation, in a fixed order.
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

    /// `N` (a new empty section with a generated id) or `N=id`.
    public mutating func insertSection(_ spec: String) throws(SyntaxError) {
        let (index, id) = try CommandSyntax.section(spec)
        insertSections.append((index, id ?? "\(idPrefix)s\(nextSectionID())"))
    }

    public var isEmpty: Bool { operations.isEmpty }

    /// The protocol's operation objects.
    public var operations: [JSONValue] {
        func path(_ p: IndexPath) -> JSONValue { .array([.number(Double(p.section)), .number(Double(p.item))]) }
        func op(_ name: String, _ fields: [String: JSONValue]) -> JSONValue {
            var f = fields
            f["op"] = .string(name)
            return .object(f)
        }
        var ops: [JSONValue] = []
        if !deleteSections.isEmpty { ops.append(op("deleteSections", ["at": .array(deleteSections.map { .number(Double($0)) })])) }
        if !deleteItems.isEmpty { ops.append(op("deleteItems", ["at": .array(deleteItems.map(path))])) }
        if !reloadSections.isEmpty { ops.append(op("reloadSections", ["at": .array(reloadSections.map { .number(Double($0)) })])) }
        if !reloadItems.isEmpty { ops.append(op("reloadItems", ["at": .array(reloadItems.map(path))])) }
        for m in moveSections { ops.append(op("moveSection", ["from": .number(Double(m.from)), "to": .number(Double(m.to))])) }
        for m in moveItems { ops.append(op("moveItem", ["from": path(m.from), "to": path(m.to)])) }
        if !insertSections.isEmpty {
            ops.append(op("insertSections", ["at": .array(insertSections.map { .number(Double($0.index)) }),
                                             "sections": .array(insertSections.map { .object(["id": .string($0.id), "items": .array([])]) })]))
        }
        if !insertItems.isEmpty {
            ops.append(op("insertItems", ["at": .array(insertItems.map { path($0.path) }),
                                          "items": .array(insertItems.map { GeneratedData.item($0.id) })]))
        }
        return ops
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
