import ArgumentParser
import TrellisClient
import TrellisCore
import TrellisProtocol

/// `trellis fork NAME NEW`: a new session from another's state now (session.fork).
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
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The session copied.") var name: String
    @Argument(help: "The new session's name.") var new: String
    @Flag(help: "Give the copy a live clock (time follows the wall clock from the source's time).") var liveClock = false
    @Flag(help: "Replace a session named NEW if there is one (its viewers are told it closed).") var replace = false

    func run() throws {
        try withServer(global, session: name) { c in
            if replace {
                do throws(ClientError) { _ = try c.call("session.destroy", ["session": .string(new)]) } catch {
                    guard case .server(_, _, "unknown_session", _) = error else { throw error }
                }
            }
            let forked = try c.call("session.fork", ["session": .string(name), "name": .string(new),
                                                     "clock": .string(liveClock ? "live" : "manual")])
            c.emit(forked) { [Human.session($0)] }
        }
    }
}
