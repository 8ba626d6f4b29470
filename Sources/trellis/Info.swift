import ArgumentParser
import TrellisClient
import TrellisCore

/// `trellis info NAME`: one session's state.
struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show a session: layout, bounds, items, clock, viewers.")

    @OptionGroup var session: SessionArguments

    func run() throws { try session.call("session.info") { Human.fields($0) } }
}
