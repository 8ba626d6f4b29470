import ArgumentParser
import TrellisClient
import TrellisCore

/// `trellis drag NAME --by DX,DY [--over 300ms] [--release-velocity DX,DY] [--at X,Y]`: a finger dragging
/// the content (gesture.pan began, changed every frame, ended), on the session's clock.
struct Drag: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Drag the content with a finger: a pan gesture at constant speed, then release.",
        discussion: """
            The finger moves by DX,DY in the view (0,-600: up, so the content scrolls down), one \
            sample every 1/60 s of the session's clock: a manual clock is advanced between \
            samples, a live one is waited for. The release velocity (pt/s) defaults to the \
            drag's own; --release-velocity 0,0 lets go without inertia. Prints the scroll state.
            """)

    @OptionGroup var session: SessionArguments
    @Option(parsing: .unconditional, help: ArgumentHelp("The finger's translation in the view.", valueName: "DX,DY")) var by: String
    @Option(help: ArgumentHelp("How long the drag takes, rounded to whole frames (default 300ms).", valueName: "duration")) var over: String = "300ms"
    @Option(parsing: .unconditional, help: ArgumentHelp("The velocity at release, pt/s.", valueName: "DX,DY")) var releaseVelocity: String?
    @Option(help: ArgumentHelp("Where the finger touches down, in the view (default its centre).", valueName: "X,Y")) var at: String?

    func run() throws {
        let gesture = try parsing { () throws(SyntaxError) in
            PanGesture.drag(by: try CommandSyntax.point(by), over: try CommandSyntax.milliseconds(over),
                            releaseVelocity: try releaseVelocity.map { v throws(SyntaxError) in try CommandSyntax.point(v) })
                .touchingDown(at: try at.map { a throws(SyntaxError) in try CommandSyntax.point(a) })
        }
        try session.perform(gesture)
    }
}
