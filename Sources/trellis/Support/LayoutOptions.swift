import ArgumentParser
import Foundation
import TrellisClient
import TrellisCore
import TrellisProtocol

/// Layout metrics shared by `new` and `layout`.
struct LayoutOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Item size WIDTHxHEIGHT (flow default 50x50, circle 70x70).", valueName: "WxH"))
    var itemSize: String?

    @Option(help: "Flow: line and inter-item spacing at once.")
    var spacing: Double?

    @Option(help: "Flow: minimum line spacing (default 10).")
    var lineSpacing: Double?

    @Option(help: "Flow: minimum inter-item spacing (default 10).")
    var interitemSpacing: Double?

    @Option(help: ArgumentHelp("Flow: section insets TOP,LEFT,BOTTOM,RIGHT or one number.", valueName: "insets"))
    var sectionInset: String?

    @Option(help: ArgumentHelp("Flow: header size WIDTHxHEIGHT.", valueName: "WxH"))
    var headerSize: String?

    @Option(help: ArgumentHelp("Flow: footer size WIDTHxHEIGHT.", valueName: "WxH"))
    var footerSize: String?

    @Option(help: "Flow: vertical (default) or horizontal.")
    var direction: String?

    @Option(help: "Circle: the radius (default: from the bounds).")
    var radius: Double?

    /// The flags given, each with the layout parameters it sets and its value as written.
    private var given: [(flag: String, parameters: [String], value: String)] {
        let all: [(String, [String], String?)] = [
            ("--item-size", ["itemSize"], itemSize),
            ("--spacing", ["minimumLineSpacing", "minimumInteritemSpacing"], spacing.map { "\($0)" }),
            ("--line-spacing", ["minimumLineSpacing"], lineSpacing.map { "\($0)" }),
            ("--interitem-spacing", ["minimumInteritemSpacing"], interitemSpacing.map { "\($0)" }),
            ("--section-inset", ["sectionInset"], sectionInset),
            ("--header-size", ["headerSize"], headerSize),
            ("--footer-size", ["footerSize"], footerSize),
            ("--direction", ["scrollDirection"], direction),
            ("--radius", ["radius"], radius.map { "\($0)" }),
        ]
        return all.compactMap { flag, parameters, value in value.map { (flag, parameters, $0) } }
    }

    /// The protocol's layout object for `type`: which flags apply to which layout, and how a
    /// flag's text becomes a value, come from the layout registry.
    func spec(type: String) throws -> JSONValue {
        guard let layout = LayoutRegistry.type(named: type) else {
            throw usageError("'\(type)': expected a layout, \(LayoutRegistry.names.joined(separator: " or "))")
        }
        let parameters = Dictionary(uniqueKeysWithValues: layout.parameterDescriptions.map { ($0.name, $0) })
        var spec: [String: JSONValue] = ["type": .string(type)]
        for (flag, names, text) in given {
            guard names.allSatisfy({ parameters[$0] != nil }) else {
                let owners = LayoutRegistry.all.filter { t in names.allSatisfy { n in t.parameterDescriptions.contains { $0.name == n } } }
                throw usageError("\(flag) applies to the \(owners.map { $0.typeName }.joined(separator: " and ")) layout\(owners.count == 1 ? "" : "s") only")
            }
            for name in names { spec[name] = try value(text, for: parameters[name]!.kind) }
        }
        return .object(spec)
    }

    /// A flag's text as the JSON value of a parameter of `kind` (the server checks the range).
    private func value(_ text: String, for kind: ParameterKind) throws -> JSONValue {
        switch kind {
        case .size:
            let size = try parsing { () throws(SyntaxError) in try CommandSyntax.size(text) }
            return .array([.number(size.width), .number(size.height)])
        case .point:
            let p = try parsing { () throws(SyntaxError) in try CommandSyntax.point(text) }
            return .array([.number(p.x), .number(p.y)])
        case .insets:
            let i = try parsing { () throws(SyntaxError) in try CommandSyntax.insets(text) }
            return .array([i.top, i.left, i.bottom, i.right].map { .number($0) })
        case .number:
            guard let n = Double(text) else { throw usageError("'\(text)': expected a number") }
            return .number(n)
        case .bool:
            return .bool(text == "true")
        case .choice, .perSection:
            return .string(text)
        }
    }
}
