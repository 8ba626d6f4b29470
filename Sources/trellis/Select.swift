import ArgumentParser
import TrellisClient
import TrellisCore

/// `trellis select NAME S:I`: selectItem (no delegate callbacks, as UIKit's programmatic call).
struct Select: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Select an item programmatically; prints the selection.")

    @OptionGroup var target: SelectionTarget

    func run() throws { try target.call("select") }
}

/// `trellis deselect NAME S:I`: deselectItem.
struct Deselect: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Deselect an item programmatically; prints the selection.")

    @OptionGroup var target: SelectionTarget

    func run() throws { try target.call("deselect") }
}

/// The session and the item `select` and `deselect` act on.
struct SelectionTarget: ParsableArguments {
    @OptionGroup var session: SessionArguments
    @Argument(help: ArgumentHelp("The item S:I.", valueName: "S:I")) var path: String

    func call(_ method: String) throws {
        let at = try parsing { () throws(SyntaxError) in try CommandSyntax.indexPath(path) }
        try session.call(method, ["at": wire(at)]) { [Human.selected($0)] }
    }
}
