import ArgumentParser
import TrellisClient
import TrellisCore
import TrellisProtocol

/// `trellis fork NAME NEW [--at TIME | --at-frame N]`: a new session from another's state now,
/// or as it was at a past moment of its recording (session.fork).
struct Fork: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Copy a session's state now into a new session (session.fork).",
        discussion: """
            The copy has everything a restart restores: data, layout, scroll, selection, \
            dynamics, and whatever is in flight (animations, a fling, a transition). The source \
            is not changed and its viewers see nothing. The copy's clock is manual unless \
            --live-clock: it moves only with `trellis advance`, and continues bit for bit as the \
            source would have from that moment, so a change can be tried on it without touching \
            the original.

            --at TIME (12.5s, 12500ms; a bare number is ms) or --at-frame N (60 a second) fork a \
            recorded session (trellis record-script) as it was that long after its recording \
            began, rebuilt from the recording's history; the source goes on untouched. A moment \
            before the start or past now is refused with the range the recording covers.
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The session copied.") var name: String
    @Argument(help: "The new session's name.") var new: String
    @Flag(help: "Give the copy a live clock (time follows the wall clock from the source's time).") var liveClock = false
    @Flag(help: "Replace a session named NEW if there is one (its viewers are told it closed).") var replace = false
    @Option(help: ArgumentHelp("Fork a recorded session as it was this long after its recording began (12.5s, 12500ms).", valueName: "time"))
    var at: String?
    @Option(help: ArgumentHelp("Fork a recorded session as it was at this frame of its recording (60 a second).", valueName: "n"))
    var atFrame: Int?

    func run() throws {
        let moment = try SeekOptions.moment(at: at, atFrame: atFrame) ?? [:]
        try withServer(global, session: name) { c in
            if replace {
                do throws(ClientError) { _ = try c.call("session.destroy", ["session": .string(new)]) } catch {
                    guard case .server(_, _, "unknown_session", _) = error else { throw error }
                }
            }
            let forked = try c.call("session.fork", moment.merging(["session": .string(name), "name": .string(new),
                                                                    "clock": .string(liveClock ? "live" : "manual")]) { a, _ in a })
            c.emit(forked) { [Human.session($0)] }
        }
    }
}
