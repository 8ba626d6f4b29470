import ArgumentParser
import TrellisClient
import TrellisCore
import TrellisProtocol

/// `trellis body add|rm NAME BODY …`: free bodies, named views that are not data items (an
/// info panel, a dropped card) for dynamic behaviours to move.
struct Body: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Add or remove free bodies: named views, not data items, that behaviours can move.",
        subcommands: [BodyAdd.self, BodyRemove.self])
}

/// `trellis body add NAME BODY --at X,Y --size W,H …` (body.add).
struct BodyAdd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a body to a session, drawn as any view is (a behaviour names it body:BODY).")

    @OptionGroup var session: SessionArguments
    @Argument(help: "The body's name, unique among the session's bodies.") var body: String
    @Option(help: ArgumentHelp("Its centre in content coordinates.", valueName: "X,Y")) var at: String
    @Option(help: ArgumentHelp("Its size.", valueName: "WxH")) var size: String
    @Option(help: "Its reuse identifier (default body).") var reuseId: String?
    @Option(help: ArgumentHelp("Its data as JSON (label, color as for items).", valueName: "json")) var data: String?
    @Option(name: .customLong("z"), help: "Its z index (default 0).") var zIndex: Double?
    @Option(help: ArgumentHelp("Its rotation in radians (clockwise, y down).", valueName: "radians")) var angle: String?

    func run() throws {
        var params: [String: JSONValue] = ["body": .string(body)]
        try parsing { () throws(SyntaxError) in
            params["center"] = wire(try CommandSyntax.point(at))
            let s = try CommandSyntax.size(size)
            params["size"] = .array([.number(s.width), .number(s.height)])
            if let angle {
                guard let a = Double(angle), a.isFinite else { throw SyntaxError("--angle '\(angle)': expected a number of radians") }
                params["angle"] = .number(a)
            }
            if let data { params["data"] = try CommandSyntax.json(data, what: "--data") }
        }
        if let reuseId { params["reuseId"] = .string(reuseId) }
        if let zIndex { params["zIndex"] = .number(zIndex) }
        try session.call("body.add", params) { r in [r["element"].map(Human.element) ?? "body:\(body)"] }
    }
}

/// `trellis body rm NAME BODY` (body.remove; refused while a behaviour acts on it).
struct BodyRemove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Remove a body (refused while a behaviour acts on it: remove those first).")

    @OptionGroup var session: SessionArguments
    @Argument(help: "The body's name.") var body: String

    func run() throws {
        try session.call("body.remove", ["body": .string(body)]) { _ in [] }
    }
}
