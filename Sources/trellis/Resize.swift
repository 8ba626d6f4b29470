import ArgumentParser
import TrellisClient
import TrellisCore

/// `trellis resize NAME WxH`: changes the view's bounds size.
struct Resize: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Resize a session's view (its bounds), e.g. 812x375.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The session's name.") var name: String
    @Argument(help: ArgumentHelp("The new size WIDTHxHEIGHT.", valueName: "WxH")) var size: String

    func run() throws {
        let s = try parsing { () throws(SyntaxError) in try CommandSyntax.size(size) }
        try withServer(global) { c in
            c.emit(try c.call("view.resize", ["session": .string(name), "bounds": .array([.number(s.width), .number(s.height)])]), Human.offset)
        }
    }
}
