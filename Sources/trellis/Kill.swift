import ArgumentParser
import TrellisClient
import TrellisCore

/// `trellis kill NAME`: destroys a session (its viewers are told and detached).
struct Kill: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Destroy a session.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The session's name.") var name: String

    func run() throws {
        try withServer(global) { c in
            // Silent on success, as tmux kill-session.
            c.emit(try c.call("session.destroy", ["session": .string(name)])) { _ in [] }
        }
    }
}
