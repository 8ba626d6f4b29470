import ArgumentParser
import TrellisClient
import TrellisCore

/// `trellis select NAME S:I`: selectItem (no delegate callbacks, as UIKit's programmatic call).
struct Select: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Select an item programmatically; prints the selection.")

    @OptionGroup var target: SelectionTarget

    func run() throws { try target.call("select") }
}

/// `trellis deselect NAME S:I` (deselectItem) or `trellis deselect NAME --all` (UIKit's
/// `selectItem(at: nil, …)`).
struct Deselect: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Deselect an item (or --all) programmatically; prints the selection.")

    @OptionGroup var session: SessionArguments
    @Argument(help: ArgumentHelp("The item S:I (leave out with --all).", valueName: "S:I")) var path: String?
    @Flag(help: "Deselect every selected item.") var all = false

    func validate() throws {
        if all == (path != nil) { throw ValidationError("give either an item S:I or --all") }
    }

    func run() throws {
        if all {
            try session.call("deselect", ["all": .bool(true)]) { [Human.selected($0)] }
        } else if let path {
            try SelectionTarget.call("deselect", session, path)
        }
    }
}

/// The session and the item `select` acts on.
struct SelectionTarget: ParsableArguments {
    @OptionGroup var session: SessionArguments
    @Argument(help: ArgumentHelp("The item S:I.", valueName: "S:I")) var path: String

    func call(_ method: String) throws { try Self.call(method, session, path) }

    static func call(_ method: String, _ session: SessionArguments, _ path: String) throws {
        let at = try parsing { () throws(SyntaxError) in try CommandSyntax.indexPath(path) }
        try session.call(method, ["at": wire(at)]) { [Human.selected($0)] }
    }
}
