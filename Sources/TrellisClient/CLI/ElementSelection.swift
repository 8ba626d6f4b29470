import TrellisCore

/// What an element word of `trellis dynamics` picks: an element by name (`i3`, `item:ID`,
/// `body:NAME`), the items at index paths as every other command writes them (`0:3`,
/// `0:0..11`), or every item (`all`). Paths name the items there now: the server is asked for
/// their ids, and the behaviour then follows those items through later updates, as UIKit's
/// behaviours follow their items. An item whose id reads as a path or as `all` is `item:ID`.
public enum ElementSelection: Hashable, Sendable {
    case element(DynamicElement)
    case indexPaths([IndexPath])
    case all

    public static func parse(_ text: String) throws(SyntaxError) -> ElementSelection {
        if text == "all" { return .all }
        if let first = text.first, first.isASCII, first.isNumber, text.contains(":") {
            return .indexPaths(try CommandSyntax.indexPaths(text))
        }
        return .element(try DynamicElement.parse(text))
    }

    /// Words that stand for the selection before it is resolved, one per element it will be
    /// (one for `all`): what a check of the behaviour's shape needs without a server.
    public var standIns: [String] {
        switch self {
        case .element(let element): return [element.argument]
        case .indexPaths(let paths): return paths.map { "item:\(CommandSyntax.format($0))" }
        case .all: return ["item:all"]
        }
    }

    /// The elements `selections` name in `session`, in order; index paths outside the data are
    /// the server's `out_of_range` refusal.
    public static func resolve(_ selections: [ElementSelection], session: String,
                               with caller: any MethodCaller) throws(ClientError) -> [DynamicElement] {
        var elements: [DynamicElement] = []
        for selection in selections {
            switch selection {
            case .element(let element):
                elements.append(element)
            case .indexPaths(let paths):
                for path in paths { elements.append(.item(ItemID(try itemID(at: path, session: session, caller)))) }
            case .all:
                elements += try allItems(session: session, caller)
            }
        }
        return elements
    }

    /// The id of the item at `path`, from the layout's attributes for it.
    static func itemID(at path: IndexPath, session: String, _ caller: any MethodCaller) throws(ClientError) -> String {
        let reply = try caller.call("query.attributes", ["session": .string(session),
                                                         "at": .array([.number(Double(path.section)), .number(Double(path.item))])])
        guard let id = reply["attributes"]?.arrayValue?.first?["element"]?["id"]?.stringValue else {
            throw .badReply("query.attributes: no item id at \(CommandSyntax.format(path))")
        }
        return id
    }

    /// Every item, section by section: `session.info` counts them, and each section ends where
    /// the next index path is out of range.
    static func allItems(session: String, _ caller: any MethodCaller) throws(ClientError) -> [DynamicElement] {
        let info = try caller.call("session.info", ["session": .string(session)])
        let sections = Int(info["sections"]?.numberValue ?? 0), total = Int(info["items"]?.numberValue ?? 0)
        var items: [DynamicElement] = []
        for section in 0..<sections where items.count < total {
            var item = 0
            while items.count < total {
                do {
                    items.append(.item(ItemID(try itemID(at: IndexPath(section, item), session: session, caller))))
                } catch .server(_, _, "out_of_range", _) {
                    break
                }
                item += 1
            }
        }
        return items
    }
}
