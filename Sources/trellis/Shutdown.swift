import ArgumentParser
import TrellisClient
import TrellisCore

/// `trellis shutdown`: stops the server (never starts one).
struct Shutdown: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Stop the server; sessions are kept in its journal unless it runs without persistence.",
        discussion: "Exits 69 when no server is running.")

    @OptionGroup var global: GlobalOptions

    func run() throws {
        try withServer(global, autoStart: false) { c in
            c.emit(try c.call("shutdown")) { _ in [] }
        }
    }
}
