import ArgumentParser
import TrellisClient
import TrellisCore

/// `trellis resize NAME WxH`: changes the view's bounds size.
struct Resize: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Resize a session's view (its bounds), e.g. 812x375.")

    @OptionGroup var session: SessionArguments
    @Argument(help: ArgumentHelp("The new size WIDTHxHEIGHT.", valueName: "WxH")) var size: String

    func run() throws {
        let s = try parsing { () throws(SyntaxError) in try CommandSyntax.size(size) }
        try session.call("view.resize", ["bounds": .array([.number(s.width), .number(s.height)])], human: Human.offset)
    }
}
