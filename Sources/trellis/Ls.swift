import ArgumentParser
import TrellisClient
import TrellisCore

/// `trellis ls`: the sessions, one line each.
struct Ls: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the sessions, one per line.")

    @OptionGroup var global: GlobalOptions

    func run() throws {
        try withServer(global) { c in
            c.emit(try c.call("session.list")) { r in
                guard case .array(let sessions)? = r["sessions"] else { return [] }
                return sessions.map(Human.session)
            }
        }
    }
}
