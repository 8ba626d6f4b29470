import TrellisCore

/// Reads `batch` params: `ops` (UIKit's operations, see PROTOCOL.md) and the optional
/// `sections` (the data source's state after the update, checked with UIKit's count rules).
public enum BatchDecoding {
    public static let operationNames = ["insertItems", "deleteItems", "moveItem", "reloadItems",
                                        "insertSections", "deleteSections", "moveSection", "reloadSections"]

    public static func batch(_ params: JSONValue) throws(WireError) -> BatchUpdate {
        do {
            let ops = try params.requireArray("ops")
            var operations: [UpdateOperation] = []
            for (n, op) in ops.enumerated() { operations.append(try operation(op, path: "params.ops[\(n)]")) }
            var after: CollectionData?
            if params.field("sections") != nil, params.field("sections") != .null {
                after = try WireDecoding.data(params)
            }
            return BatchUpdate(operations, dataAfter: after)
        } catch let error as ParamError {
            throw .params(error)
        } catch let error as WireError {
            throw error
        } catch {
            throw .params(ParamError(path: "params", .mismatch(expected: "a batch", found: "\(error)")))
        }
    }

    static func operation(_ value: JSONValue, path: String) throws(ParamError) -> UpdateOperation {
        let name = try value.requireString("op", in: path)
        switch name {
        case "insertItems":
            try value.rejectUnknownKeys(allowed: ["op", "at", "items"], path: path)
            let at = try WireDecoding.indexPaths(value.requireArray("at", in: path), path: "\(path).at")
            let items = try WireDecoding.items(value.requireArray("items", in: path), path: "\(path).items")
            guard items.count == at.count else {
                throw ParamError(path: "\(path).items", .mismatch(expected: "one item per index path in 'at' (\(at.count))", found: "\(items.count) items"))
            }
            return .insertItems(at: at, items: items)
        case "deleteItems":
            try value.rejectUnknownKeys(allowed: ["op", "at"], path: path)
            return .deleteItems(at: try WireDecoding.indexPaths(value.requireArray("at", in: path), path: "\(path).at"))
        case "moveItem":
            try value.rejectUnknownKeys(allowed: ["op", "from", "to"], path: path)
            guard let from = value.field("from"), let to = value.field("to") else {
                throw ParamError(path: "\(path).from", .missing(expected: "from and to index paths [section, item]"))
            }
            return .moveItem(from: try WireDecoding.indexPath(from, path: "\(path).from"),
                             to: try WireDecoding.indexPath(to, path: "\(path).to"))
        case "reloadItems":
            try value.rejectUnknownKeys(allowed: ["op", "at", "items"], path: path)
            let at = try WireDecoding.indexPaths(value.requireArray("at", in: path), path: "\(path).at")
            let items = try value.optionalArray("items", in: path).map { (v) throws(ParamError) in try WireDecoding.items(v, path: "\(path).items") }
            if let items, items.count != at.count {
                throw ParamError(path: "\(path).items", .mismatch(expected: "one item per index path in 'at' (\(at.count))", found: "\(items.count) items"))
            }
            return .reloadItems(at: at, items: items)
        case "insertSections":
            try value.rejectUnknownKeys(allowed: ["op", "at", "sections"], path: path)
            let at = try indices(value.requireArray("at", in: path), path: "\(path).at")
            let sections = try WireDecoding.sections(value.requireArray("sections", in: path), path: "\(path).sections")
            guard sections.count == at.count else {
                throw ParamError(path: "\(path).sections", .mismatch(expected: "one section per index in 'at' (\(at.count))", found: "\(sections.count) sections"))
            }
            return .insertSections(at: at, sections: sections)
        case "deleteSections":
            try value.rejectUnknownKeys(allowed: ["op", "at"], path: path)
            return .deleteSections(at: try indices(value.requireArray("at", in: path), path: "\(path).at"))
        case "moveSection":
            try value.rejectUnknownKeys(allowed: ["op", "from", "to"], path: path)
            return .moveSection(from: try value.requireInt("from", in: path), to: try value.requireInt("to", in: path))
        case "reloadSections":
            try value.rejectUnknownKeys(allowed: ["op", "at", "sections"], path: path)
            let at = try indices(value.requireArray("at", in: path), path: "\(path).at")
            let sections = try value.optionalArray("sections", in: path).map { (v) throws(ParamError) in try WireDecoding.sections(v, path: "\(path).sections") }
            return .reloadSections(at: at, sections: sections)
        default:
            throw ParamError(path: "\(path).op", .mismatch(expected: "one of \(operationNames.joined(separator: ", "))", found: "\"\(name)\""))
        }
    }

    static func indices(_ values: [JSONValue], path: String) throws(ParamError) -> [Int] {
        var result: [Int] = []
        for (n, v) in values.enumerated() { result.append(try WireDecoding.index(v, path: "\(path)[\(n)]")) }
        return result
    }
}
