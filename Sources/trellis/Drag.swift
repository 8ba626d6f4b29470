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

            Ranges (the server's, checked before the first sample; outside them: exit 65 and \
            nothing sent): --by each of DX, DY from -1000000 to 1000000 pt; --release-velocity, \
            and the drag's own velocity, each from -1000000 to 1000000 pt/s; --at each from \
            -1000000000 to 1000000000; --over at most 600000ms (10 minutes). A drag that cannot \
            finish (a refused sample, a lost connection, SIGINT or SIGTERM) is cancelled \
            (gesture.pan cancelled) before trellis exits; after a signal it exits 128 + its number.
            """)

    @OptionGroup var session: SessionArguments
    @Option(parsing: .unconditional, help: ArgumentHelp("The finger's translation in the view, pt (each within ±1000000).", valueName: "DX,DY")) var by: String
    @Option(help: ArgumentHelp("How long the drag takes, rounded to whole frames; at most 600000ms (10 minutes).", valueName: "duration")) var over: String = "300ms"
    @Option(parsing: .unconditional, help: ArgumentHelp("The velocity at release, pt/s (each within ±1000000).", valueName: "DX,DY")) var releaseVelocity: String?
    @Option(help: ArgumentHelp("Where the finger touches down, in the view (default its centre).", valueName: "X,Y")) var at: String?

    func run() throws {
        let (translation, duration, release, location) = try parsing { () throws(SyntaxError) in
            (try CommandSyntax.point(by), try CommandSyntax.milliseconds(over),
             try releaseVelocity.map { v throws(SyntaxError) in try CommandSyntax.point(v) },
             try at.map { a throws(SyntaxError) in try CommandSyntax.point(a) })
        }
        let gesture = try checkingRanges { () throws(RangeError) in
            try GestureRanges.check(translation, in: GestureRanges.translation, option: "--by", text: by, names: "DX and DY", unit: "pt")
            try GestureRanges.checkDuration(duration, option: "--over", text: over)
            if let release {
                try GestureRanges.check(release, in: GestureRanges.velocity, option: "--release-velocity", text: releaseVelocity ?? "",
                                        names: "DX and DY", unit: "pt/s")
            }
            if let location { try GestureRanges.check(location, in: GestureRanges.point, option: "--at", text: at ?? "", unit: "pt") }
            let gesture = PanGesture.drag(by: translation, over: duration, releaseVelocity: release).touchingDown(at: location)
            try GestureRanges.checkOwnVelocity(of: gesture)
            return gesture
        }
        try session.perform(gesture)
    }
}
