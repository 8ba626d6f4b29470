import ArgumentParser
import TrellisClient
import TrellisCore

/// `trellis inset NAME T,L,B,R`: UIScrollView's contentInset.
struct Inset: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Set a session's content insets (UIScrollView.contentInset), e.g. 20,0,0,0.")

    @OptionGroup var session: SessionArguments
    @Argument(help: ArgumentHelp("Insets TOP,LEFT,BOTTOM,RIGHT or one number for all four.", valueName: "insets")) var insets: String

    func run() throws {
        let i = try parsing { () throws(SyntaxError) in try CommandSyntax.insets(insets) }
        try session.call("view.inset", ["contentInset": wire(i)], human: Human.offset)
    }
}
