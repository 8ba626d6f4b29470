import ArgumentParser
import TrellisClient
import TrellisCore

/// `trellis move NAME 0:5 0:7`: moveItem, the short form of `batch --move`.
struct Move: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Move an item (animated) from one index path to another.")

    @OptionGroup var session: SessionArguments
    @Argument(help: ArgumentHelp("From S:I.", valueName: "from")) var from: String
    @Argument(help: ArgumentHelp("To S:I.", valueName: "to")) var to: String
    @OptionGroup(title: "Animation") var animation: AnimationOptions

    func run() throws {
        var builder = BatchBuilder(idPrefix: "")
        try parsing { () throws(SyntaxError) in try builder.move("\(from)>\(to)") }
        try performBatch(session, builder: builder, animation: animation)
    }
}
