import ArgumentParser
import TrellisClient
import TrellisCore

/// `trellis stats [NAME]`: the server's counters, or a session's (views, reuse pools, viewers).
struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the server's counters, or a session's: views bound, reuse pools, frames, viewers.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "A session (omit for the server).") var name: String?

    func run() throws {
        try withServer(global) { c in
            c.emit(try c.call("stats", name.map { ["session": .string($0)] } ?? [:])) { Human.fields($0) }
        }
    }
}
