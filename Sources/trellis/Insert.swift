import ArgumentParser
import TrellisClient
import TrellisCore

/// `trellis insert NAME 0:0..9`: insertItems, the short form of `batch --insert`.
struct Insert: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Insert items (animated): S:I=id, or S:I / S:I..J with generated ids.")

    @OptionGroup var session: SessionArguments
    @Argument(help: ArgumentHelp("Where: S:I=id, S:I or S:I..J (inclusive).", valueName: "path")) var paths: [String]
    @Option(help: "The prefix of generated ids (deterministic ids for scripts).") var idPrefix: String?
    @OptionGroup(title: "Animation") var animation: AnimationOptions

    func run() throws {
        var builder = BatchBuilder(idPrefix: GeneratedData.idPrefix(idPrefix))
        try parsing { () throws(SyntaxError) in for p in paths { try builder.insert(p) } }
        try performBatch(session, builder: builder, animation: animation)
    }
}
