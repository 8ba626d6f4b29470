import ArgumentParser
import TrellisClient
import TrellisCore

/// `trellis advance NAME 16ms`: moves a manual clock forward.
struct Advance: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Advance a manual-clock session's time (16ms, 0.5s; a bare number is milliseconds).")

    @OptionGroup var session: SessionArguments
    @Argument(help: ArgumentHelp("How far: 16ms, 0.5s.", valueName: "duration")) var duration: String

    func run() throws {
        let ms = try parsing { () throws(SyntaxError) in try CommandSyntax.milliseconds(duration) }
        try session.call("clock.advance", ["ms": .number(ms)]) { r in ["time=\(Human.number(r["time"]))ms"] }
    }
}
