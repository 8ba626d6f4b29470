import ArgumentParser
import TrellisClient
import TrellisCore

/// `trellis fling NAME --velocity DX,DY`: a flick (began, one frame of movement, ended).
struct Fling: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Flick the content: a one-frame pan released at a velocity (pt/s, in the view).",
        discussion: "0,-3000 is a flick up: the content decelerates toward its end. Prints the scroll state.")

    @OptionGroup var session: SessionArguments
    @Option(parsing: .unconditional, help: ArgumentHelp("The finger's velocity at release, pt/s.", valueName: "DX,DY")) var velocity: String

    func run() throws {
        let v = try parsing { () throws(SyntaxError) in try CommandSyntax.point(velocity) }
        try session.perform(PanGesture.fling(velocity: v))
    }
}
