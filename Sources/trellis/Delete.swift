import ArgumentParser
import TrellisClient
import TrellisCore

/// `trellis delete NAME 0:3`: deleteItems, the short form of `batch --delete`.
struct Delete: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Delete items (animated): S:I or S:I..J.")

    @OptionGroup var session: SessionArguments
    @Argument(help: ArgumentHelp("Index paths S:I or ranges S:I..J (inclusive).", valueName: "path")) var paths: [String]
    @OptionGroup(title: "Animation") var animation: AnimationOptions

    func run() throws {
        var builder = BatchBuilder(idPrefix: "")
        try parsing { () throws(SyntaxError) in for p in paths { try builder.delete(p) } }
        try performBatch(session, builder: builder, animation: animation)
    }
}
