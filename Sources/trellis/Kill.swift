import ArgumentParser
import TrellisClient
import TrellisCore

/// `trellis kill NAME`: destroys a session (its viewers are told and detached).
struct Kill: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Destroy a session.")

    @OptionGroup var session: SessionArguments

    /// Silent on success, as tmux kill-session.
    func run() throws { try session.call("session.destroy") { _ in [] } }
}
