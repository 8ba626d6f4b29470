import ArgumentParser
import Foundation
import TrellisClient
import TrellisCore
import TrellisProtocol

/// Layout metrics shared by `new` and `layout`. Each flag's help names the layouts that take it
/// and the values a choice takes from the layout registry (`LayoutVocabulary`).
struct LayoutOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Item size WIDTHxHEIGHT (flow default 50x50, circle 70x70).", valueName: "WxH"))
    var itemSize: String?

    @Option(help: ArgumentHelp(LayoutVocabulary.help(["minimumLineSpacing", "minimumInteritemSpacing"], "line and inter-item spacing at once. ")
                               + LayoutVocabulary.help(["spacing"], "the spacing key (in item widths).")))
    var spacing: Double?

    @Option(help: ArgumentHelp(LayoutVocabulary.help(["minimumLineSpacing"], "minimum line spacing (default 10).")))
    var lineSpacing: Double?

    @Option(help: ArgumentHelp(LayoutVocabulary.help(["minimumInteritemSpacing"], "minimum inter-item spacing (default 10).")))
    var interitemSpacing: Double?

    @Option(help: ArgumentHelp(LayoutVocabulary.help(["sectionInset"], "section insets TOP,LEFT,BOTTOM,RIGHT or one number."), valueName: "insets"))
    var sectionInset: String?

    @Option(help: ArgumentHelp(LayoutVocabulary.help(["headerSize"], "header size WIDTHxHEIGHT."), valueName: "WxH"))
    var headerSize: String?

    @Option(help: ArgumentHelp(LayoutVocabulary.help(["footerSize"], "footer size WIDTHxHEIGHT."), valueName: "WxH"))
    var footerSize: String?

    @Option(help: ArgumentHelp(LayoutVocabulary.help(["scrollDirection"], Choices.list(LayoutVocabulary.choices(of: "scrollDirection")) + " (default vertical).")))
    var direction: String?

    @Option(help: ArgumentHelp(LayoutVocabulary.help(["radius"], "the radius (default: from the bounds; a carousel's from its style).")))
    var radius: Double?

    @Option(help: ArgumentHelp(LayoutVocabulary.help(["style"], Choices.list(LayoutVocabulary.choices(of: "style")) + ".")))
    var style: String?

    @Option(help: ArgumentHelp(LayoutVocabulary.help(["transform"], "with --style custom, the named transform: \(Choices.list(LayoutVocabulary.choices(of: "transform"))).")))
    var transform: String?

    @Flag(inversion: .prefixedNo, help: ArgumentHelp(LayoutVocabulary.help(["wrap"], "endless scrolling (default: the style's, iCarousel's).")))
    var wrap: Bool?

    @Flag(help: ArgumentHelp(LayoutVocabulary.help(["vertical"], "scroll vertically.")))
    var vertical = false

    @Option(help: ArgumentHelp(LayoutVocabulary.help(["itemWidth"], "the item width its geometry uses (default: the first item's).")))
    var itemWidth: Double?

    @Option(help: ArgumentHelp(LayoutVocabulary.help(["perspective"], "m34, between -0.01 and 0 (default -1/500).")))
    var perspective: Double?

    @Option(help: ArgumentHelp("A layout object in a JSON file (the compositional layout's sections, say); other flags add keys to it.",
                               valueName: "path"))
    var file: String?

    @Option(help: ArgumentHelp("With --layout list (a compositional list preset): "
                               + Choices.list(CompositionalListConfiguration.Appearance.allCases.map(\.rawValue)) + " (default plain)."))
    var appearance: String?

    @Option(name: .customLong("set"), help: ArgumentHelp("Any other key of the layout, KEY=VALUE (repeatable), e.g. --set arc=3.14 --set fadeMax=0.",
                                                      valueName: "KEY=VALUE"))
    var settings: [String] = []

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
            ("--style", ["style"], style),
            ("--transform", ["transform"], transform),
            ("--wrap", ["wrap"], wrap.map { "\($0)" }),
            ("--vertical", ["vertical"], vertical ? "true" : nil),
            ("--item-width", ["itemWidth"], itemWidth.map { "\($0)" }),
            ("--perspective", ["perspective"], perspective.map { "\($0)" }),
        ]
        return all.compactMap { flag, parameters, value in value.map { (flag, parameters, $0) } }
    }

    /// The protocol's layout object for `type`: which flags apply to which layout, and how a
    /// flag's text becomes a value, come from the layout registry.
    func spec(type given: String) throws -> JSONValue {
        // `list` is the compositional layout's list preset (`--appearance`), not a layout of its own.
        let checked = try parsing { () throws(SyntaxError) in try Choices.check(given, among: LayoutRegistry.names + ["list"], what: "layout") }
        let isList = checked == "list"
        let type = isList ? CompositionalLayout.typeName : checked
        if appearance != nil, !isList { throw usageError("--appearance applies to --layout list only") }
        let layout = LayoutRegistry.type(named: type)!  // a name of the registry's, just checked
        let parameters = Dictionary(uniqueKeysWithValues: layout.parameterDescriptions.map { ($0.name, $0) })
        var spec: [String: JSONValue] = ["type": .string(type)]
        if let file { spec = try Self.contents(of: file, type: type) }
        if isList {
            let names = CompositionalListConfiguration.Appearance.allCases.map(\.rawValue)
            let chosen = try parsing { () throws(SyntaxError) in try Choices.check(appearance ?? "plain", among: names, what: "--appearance") }
            spec["list"] = .object(["appearance": .string(chosen)])
        }
        var given = self.given
        // `--spacing` is the flow's two spacings at once, or the layout's own `spacing` key.
        if let i = given.firstIndex(where: { $0.flag == "--spacing" }), parameters["spacing"] != nil {
            given[i].parameters = ["spacing"]
        }
        for setting in settings {
            let parts = setting.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty else { throw usageError("--set '\(setting)': expected KEY=VALUE, e.g. --set arc=3.14") }
            guard parameters[parts[0]] != nil else {
                throw usageError("--set '\(setting)': the \(type) layout has no key '\(parts[0])'; its keys: "
                                 + layout.parameterDescriptions.map(\.name).joined(separator: ", "))
            }
            given.append(("--set", [parts[0]], parts[1]))
        }
        for (flag, names, text) in given {
            guard names.allSatisfy({ parameters[$0] != nil }) else {
                let owners = LayoutRegistry.all.filter { t in names.allSatisfy { n in t.parameterDescriptions.contains { $0.name == n } } }
                throw usageError("\(flag) applies to the \(owners.map { $0.typeName }.joined(separator: " and ")) layout\(owners.count == 1 ? "" : "s") only")
            }
            for name in names { spec[name] = try value(text, for: parameters[name]!.kind, flag: flag == "--set" ? "--set \(name)" : flag) }
        }
        return .object(spec)
    }

    /// The members of the layout object in `path` (relative to a running script's file, as
    /// every file a script names); its `type`, when given, must be `type`.
    private static func contents(of path: String, type: String) throws -> [String: JSONValue] {
        guard case .object(var members) = try readJSONFile(path) else { throw usageError("--file \(path): expected a layout object {…}") }
        if let t = members["type"], t != .string(type) {
            throw usageError("--file \(path): the file's layout type is \(JSONWriter.string(t)), not \"\(type)\"")
        }
        members["type"] = .string(type)
        return members
    }

    /// A flag's text as the JSON value of a parameter of `kind` (the server checks the range).
    private func value(_ text: String, for kind: ParameterKind, flag: String) throws -> JSONValue {
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
            return .bool(try parsing { () throws(SyntaxError) in try Choices.check(text, among: ["true", "false"], what: flag) } == "true")
        case .choice(let names):
            return .string(try parsing { () throws(SyntaxError) in try Choices.check(text, among: names, what: flag) })
        case .perSection, .compositionalSections, .compositionalRule, .compositionalList:
            return .string(text)
        }
    }
}
