import ArgumentParser
import TrellisClient
import TrellisCore

/// `trellis scene NAME`: what is on screen now (presentation values), back to front.
struct SceneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scene",
        abstract: "Print the scene: the bound views back to front, with their on-screen (presentation) attributes.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The session's name.") var name: String

    func run() throws {
        try withServer(global) { c in
            c.emit(try c.call("query.scene", ["session": .string(name)])) { r in
                var lines = ["time=\(Human.number(r["time"]))ms offset=\(Human.numbers(r["contentOffset"])) contentSize=\(Human.numbers(r["contentSize"])) bounds=\(Human.numbers(r["bounds"], separator: "x"))"]
                if case .array(let views)? = r["views"] { lines += views.map(Human.attributes) }
                return lines
            }
        }
    }
}
