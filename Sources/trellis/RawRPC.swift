import ArgumentParser
import TrellisClient
import TrellisCore
import TrellisProtocol

/// `trellis rpc METHOD '{json params}'`: one protocol request as it is, so any accepted change
/// (a pan's samples, a behaviour, a chunked upload's step) can stand on a script line, as the
/// flight recorder writes it when no readable command says the same.
struct RawRPC: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rpc",
        abstract: "Send one protocol request as it is and print its result as JSON.",
        discussion: """
            METHOD is a protocol method (session.create, gesture.pan, …; see PROTOCOL.md) and \
            PARAMS its params, one JSON object (default {}). The result is printed as one line \
            of JSON; a refusal as the server's message (with --json: its error object), exit 65. \
            In a script (trellis run) the line reads `rpc gesture.pan '{"session":"s",…}'`; the \
            session names in it get the run's prefix like any other command's.
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("The protocol method.", valueName: "method")) var method: String
    @Argument(help: ArgumentHelp("Its params: one JSON object.", valueName: "params")) var params: String = "{}"

    /// The params as an object, or why they are not one.
    static func object(_ text: String) throws(SyntaxError) -> [String: JSONValue] {
        let value: JSONValue
        do { value = try JSONParser.parse(text) } catch {
            throw SyntaxError("rpc params: not JSON (\(error.message)); expected one object such as '{\"session\":\"demo\"}'")
        }
        guard case .object(let members) = value else {
            throw SyntaxError("rpc params: expected a JSON object such as '{\"session\":\"demo\"}', found \(value.kindDescription)")
        }
        return members
    }

    func run() throws {
        guard !method.isEmpty, method.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7f }) else {
            throw usageError("rpc: expected a method name such as gesture.pan, found '\(method)'")
        }
        let members = try parsing { () throws(SyntaxError) in try Self.object(params) }
        try withServer(global, session: members["session"]?.stringValue, raw: true) { c in
            printOutput(JSONWriter.string(try c.call(method, members)))
        }
    }
}
