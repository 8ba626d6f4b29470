import ArgumentParser
import TrellisClient
import TrellisCore

/// `trellis scene NAME`: what is on screen now (presentation values), back to front.
struct SceneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scene",
        abstract: "Print the scene: the bound views back to front, with their on-screen (presentation) attributes.")

    @OptionGroup var session: SessionArguments

    func run() throws {
        try session.call("query.scene") { r in
            ["time=\(Human.number(r["time"]))ms offset=\(Human.numbers(r["contentOffset"])) contentSize=\(Human.numbers(r["contentSize"])) bounds=\(Human.numbers(r["bounds"], separator: "x"))"]
                + (r["views"]?.arrayValue ?? []).map(Human.attributes)
        }
    }
}
