import TrellisClient
import TrellisProtocol

/// The requests a recorded script (`recording.stop`'s `script`) sends, line by line, as
/// `trellis run` sends them: its `rpc`, `advance`, `scroll` and `kill` lines (`expect` lines
/// and comments send nothing; `trellis run` checks those itself). Tests replay them on a fresh
/// server to compare its frames with the live session's.
public enum RecordedScriptRequests {
    /// A line the recorder writes that this replay does not know.
    public struct UnknownLine: Error, CustomStringConvertible {
        public let description: String
    }

    /// Each sending line's request, in order.
    public static func requests(in script: String) throws -> [(method: String, params: [String: JSONValue])] {
        var requests: [(method: String, params: [String: JSONValue])] = []
        for line in script.split(separator: "\n") {
            let words = try ScriptTokenizer.words(String(line))
            guard let head = words.first else { continue }
            switch (head, words.count) {
            case ("rpc", 3):
                guard case .object(let members) = try JSONParser.parse(words[2]) else { throw UnknownLine(description: "rpc params that are not an object: \(line)") }
                requests.append((words[1], members))
            case ("advance", 3) where words[2].hasSuffix("ms"):
                guard let ms = Double(words[2].dropLast(2)) else { throw UnknownLine(description: "an advance that is not milliseconds: \(line)") }
                requests.append(("clock.advance", ["session": .string(words[1]), "ms": .number(ms)]))
            case ("kill", 2):
                requests.append(("session.destroy", ["session": .string(words[1])]))
            case ("scroll", 3...4) where words[2].hasPrefix("--to=") && (words.count == 3 || words[3] == "--animated"):
                let xy = words[2].dropFirst(5).split(separator: ",").compactMap { Double($0) }
                guard xy.count == 2 else { throw UnknownLine(description: "a scroll that is not --to=X,Y: \(line)") }
                var params: [String: JSONValue] = ["session": .string(words[1]), "offset": .array(xy.map { .number($0) })]
                if words.count == 4 { params["animated"] = .bool(true) }
                requests.append(("scroll.to", params))
            case ("expect", _):
                continue
            default:
                throw UnknownLine(description: "a recorded line this replay does not know: \(line)")
            }
        }
        return requests
    }
}
