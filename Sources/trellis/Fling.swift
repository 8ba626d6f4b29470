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
    @Option(help: ArgumentHelp("Where the finger touches down, in the view (default its centre).", valueName: "X,Y")) var at: String?

    func run() throws {
        let gesture = try parsing { () throws(SyntaxError) in
            PanGesture.fling(velocity: try CommandSyntax.point(velocity))
                .touchingDown(at: try at.map { a throws(SyntaxError) in try CommandSyntax.point(a) })
        }
        try session.perform(gesture)
    }
}
