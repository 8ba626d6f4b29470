import ArgumentParser
import Foundation
import TrellisClient
import TrellisCore
import TrellisProtocol

/// Reads a JSON file (`-` for stdin); exit 66 when it cannot be read, 65 when it is not JSON.
func readJSONFile(_ path: String) throws -> JSONValue {
    let path = ScriptHost.current.map { ScriptFile.resolve(path, relativeTo: $0.scriptPath) } ?? path
    let data: Data
    if path == "-" {
        data = FileHandle.standardInput.readDataToEndOfFile()
    } else {
        guard let contents = FileManager.default.contents(atPath: path) else {
            printError("trellis: cannot read \(path)")
            throw ExitCode(Exit.noInput)
        }
        data = contents
    }
    do {
        return try JSONParser.parse([UInt8](data), limits: JSONLimits(maximumDepth: 64, maximumStringBytes: 64 << 20, maximumElements: 1 << 26))
    } catch {
        printError("trellis: \(path) is not valid JSON: \(error.message)")
        throw ExitCode(Exit.refused)
    }
}
