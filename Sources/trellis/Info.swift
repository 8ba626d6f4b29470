import ArgumentParser
import TrellisClient
import TrellisCore

/// `trellis info NAME`: one session's state.
struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show a session: layout, bounds, items, clock, viewers.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The session's name.") var name: String

    func run() throws {
        try withServer(global) { c in
            c.emit(try c.call("session.info", ["session": .string(name)])) { Human.fields($0) }
        }
    }
}
