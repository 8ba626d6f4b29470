import ArgumentParser
import TrellisClient
import TrellisCore

/// `trellis fling NAME --velocity DX,DY`: a flick (began, one frame of movement, ended).
struct Fling: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Flick the content: a one-frame pan released at a velocity (pt/s, in the view).",
        discussion: """
            0,-3000 is a flick up: the content decelerates toward its end. Prints the scroll state. \
            --velocity takes each of DX, DY from -1000000 to 1000000 pt/s and --at each of X, Y \
            from -1000000000 to 1000000000 (the server's ranges, checked before anything is sent: \
            exit 65 outside them). A flick that cannot finish is cancelled before trellis exits.
            """)

    @OptionGroup var session: SessionArguments
    @Option(parsing: .unconditional, help: ArgumentHelp("The finger's velocity at release, pt/s (each within ±1000000).", valueName: "DX,DY")) var velocity: String
    @Option(help: ArgumentHelp("Where the finger touches down, in the view (default its centre).", valueName: "X,Y")) var at: String?

    func run() throws {
        let (v, location) = try parsing { () throws(SyntaxError) in
            (try CommandSyntax.point(velocity), try at.map { a throws(SyntaxError) in try CommandSyntax.point(a) })
        }
        let gesture = try checkingRanges { () throws(RangeError) in
            try GestureRanges.check(v, in: GestureRanges.velocity, option: "--velocity", text: velocity, names: "DX and DY", unit: "pt/s")
            if let location { try GestureRanges.check(location, in: GestureRanges.point, option: "--at", text: at ?? "", unit: "pt") }
            return PanGesture.fling(velocity: v).touchingDown(at: location)
        }
        try session.perform(gesture)
    }
}
