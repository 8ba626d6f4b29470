import ArgumentParser
import Foundation
import TrellisClient
import TrellisCore
import TrellisProtocol
import TrellisServer

/// One connected invocation: calls the server and prints results as text or JSON.
struct ClientContext {
    let global: GlobalOptions
    /// The server: its socket, or the script run's caller (embedded or shared, see `ScriptHost`).
    let caller: any MethodCaller
    /// The socket connection when there is one of this invocation's own (nil inside a script run).
    let connection: RPCClient?

    func call(_ method: String, _ params: [String: JSONValue] = [:]) throws(ClientError) -> JSONValue {
        try caller.call(method, params)
    }

    /// Prints `result` raw with `--json`, else the lines `human` makes of it.
    func emit(_ result: JSONValue, _ human: (JSONValue) -> [String]) {
        if global.json {
            printOutput(JSONWriter.string(result))
        } else {
            for line in human(result) { printOutput(line) }
        }
    }
}

/// Connects (starting a server unless told not to), runs `body`, and maps failures to the
/// documented exit codes with the message on stderr (`session`: the one the command names, for
/// the commands a message suggests; `raw`: the command sent the user's own params, so a refusal
/// is printed in the server's words, `params.at` and all).
func withServer(_ global: GlobalOptions, autoStart: Bool = true, session: String? = nil, raw: Bool = false,
                _ body: (ClientContext) throws -> Void) throws {
    if let host = ScriptHost.current {
        // Inside `trellis run`: the run's server, which stays open for the next line.
        do {
            try body(ClientContext(global: global, caller: host.caller, connection: nil))
        } catch let error as ClientError {
            host.lastError = error
            host.lastSession = session
            host.lastRaw = raw
            throw report(error, json: global.json, session: session, raw: raw)
        }
        return
    }
    do {
        var launcher = ServerLauncher(socketPath: global.socketPath)
        launcher.callTimeout = global.timeout
        let client = try launcher.connect(autoStart: autoStart && !global.noStart)
        defer { client.close() }
        try body(ClientContext(global: global, caller: client, connection: client))
    } catch let error as ClientError {
        if !autoStart, error.nothingListens {
            printError("trellis: no server running on \(global.socketPath)")
            throw ExitCode(Exit.unavailable)
        }
        throw report(error, json: global.json, noStart: global.noStart, session: session, raw: raw)
    }
}

/// A request refused before it was sent, exactly as the server would refuse it: the same message,
/// code and exit, and the same failure for a script's `expect-error`.
func refuse(_ refusal: RPCError, json: Bool) -> ExitCode {
    let error = ClientError.server(code: refusal.code, message: refusal.message, domainCode: refusal.domainCode,
                                   data: refusal.json["data"])
    ScriptHost.current?.lastError = error
    return report(error, json: json)
}

/// Prints a client error and returns the exit to throw: the server's refusals in the CLI's words
/// (`CommandWording`; raw with --json), a connection refused under `--no-start` with how to
/// start a server. `raw`: the server's message untouched (`trellis rpc`, whose user wrote params).
func report(_ error: ClientError, json: Bool, noStart: Bool = false, session: String? = nil, raw: Bool = false) -> ExitCode {
    switch error {
    case .server(let code, let message, let domainCode, let data):
        if json {
            var object: [String: JSONValue] = ["code": .number(Double(code)), "message": .string(message)]
            if let data { object["data"] = data }
            printError(JSONWriter.string(.object(object)))
        } else if raw {
            printError(message)
        } else {
            // The server's message alone, so scripts can match UIKit's exact text.
            printError(CommandWording.message(message, domainCode: domainCode, data: data, session: session))
        }
        // JSON-RPC's own codes mean client and server disagree about the protocol itself.
        let protocolFaults: Set<Int> = [-32700, -32600, -32601, -32603]
        return ExitCode(protocolFaults.contains(code) ? Exit.software : Exit.refused)
    case .badReply:
        printError("trellis: \(error)")
        return ExitCode(Exit.software)
    case .unsendable:
        printError("trellis: \(error)")
        return ExitCode(Exit.usage)
    case .connect(let path, _, _) where noStart && error.nothingListens:
        printError("trellis: \(error)\nno server runs there and --no-start forbids starting one: start it with `trellisd --socket \(path) &` (or leave out --no-start and trellis starts it)")
        return ExitCode(Exit.unavailable)
    case .connect, .disconnected, .timeout, .launch:
        printError("trellis: \(error)")
        return ExitCode(Exit.unavailable)
    }
}
