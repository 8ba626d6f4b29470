import ArgumentParser
import TrellisClient
import TrellisCore

/// `trellis select NAME S:I`: selectItem (no delegate callbacks, as UIKit's programmatic call).
struct Select: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Select an item programmatically; prints the selection.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The session's name.") var name: String
    @Argument(help: ArgumentHelp("The item S:I.", valueName: "S:I")) var path: String

    func run() throws { try selection("select", global: global, session: name, path: path) }
}

/// `trellis deselect NAME S:I`: deselectItem.
struct Deselect: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Deselect an item programmatically; prints the selection.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The session's name.") var name: String
    @Argument(help: ArgumentHelp("The item S:I.", valueName: "S:I")) var path: String

    func run() throws { try selection("deselect", global: global, session: name, path: path) }
}

func selection(_ method: String, global: GlobalOptions, session: String, path: String) throws {
    let at = try parsing { () throws(SyntaxError) in try CommandSyntax.indexPath(path) }
    try withServer(global) { c in
        c.emit(try c.call(method, ["session": .string(session), "at": wire(at)])) { [Human.selected($0)] }
    }
}
