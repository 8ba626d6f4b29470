import ArgumentParser
import TrellisClient
import TrellisProtocol

/// `--at TIME` / `--at-frame N`: a past moment of a recorded session, as session.seek and
/// session.fork take it (`at` in ms since the recording began, or `atFrame`).
enum SeekOptions {
    /// The params naming the moment, or nil when neither option was given.
    static func moment(at: String?, atFrame: Int?) throws -> [String: JSONValue]? {
        if at != nil && atFrame != nil { throw usageError("give either --at or --at-frame, not both") }
        if let atFrame {
            guard atFrame >= 0 else { throw usageError("--at-frame: expected a frame number from 0 (the recording's start), found \(atFrame)") }
            return ["atFrame": .number(Double(atFrame))]
        }
        guard let at else { return nil }
        // A bare number is milliseconds, as --at-time's.
        let ms = try parsing { () throws(SyntaxError) in try CommandSyntax.milliseconds(at) }
        return ["at": .number(ms)]
    }
}
