import TrellisCore
import TrellisProtocol
#if canImport(Glibc)
import Glibc
#endif

/// A session that could not be restored at start: set aside with why and where its files are.
struct FailedSession {
    var name: String
    var reason: String
    var keptIn: String

    var json: JSONValue { .object(["name": .string(name), "reason": .string(reason), "kept": .string(keptIn)]) }
}

extension Persistence {
    /// Keeps the files of sessions that could not be restored (copies of the snapshot and the
    /// journal as they were, in `failed/`), logs why, and takes a snapshot of the others so the
    /// next start does not meet them again.
    func setAside(_ failed: [(name: String, reason: String)], skippedLines: Int) throws(PersistenceError) {
        let kept = directory + "/failed"
        try FileIO.makeDirectories(kept)
        var stamp = timeval()
        gettimeofday(&stamp, nil)
        let prefix = "\(kept)/\(stamp.tv_sec)-\(getpid())"
        for (path, name) in [(snapshotPath, "snapshot.json"), (journalPath, "journal.ndjson")] {
            if let bytes = try FileIO.read(path) {
                var copy = ByteBuffer(capacity: bytes.count)
                copy.append(contentsOf: bytes)
                try FileIO.replace("\(prefix)-\(name)", with: copy)
            }
        }
        for f in failed {
            failedSessions.append(FailedSession(name: f.name, reason: f.reason, keptIn: "\(prefix)-snapshot.json, \(prefix)-journal.ndjson"))
            server.logger.error("session '\(f.name)' could not be restored and was set aside (its files are kept as \(prefix)-*): \(f.reason)")
        }
        if skippedLines > 0 { server.logger.warning("skipped \(skippedLines) journal line\(skippedLines == 1 ? "" : "s") of sessions set aside") }
        do { try compact() } catch {
            server.logger.warning("could not take a snapshot after setting sessions aside (the next start will meet them again): \(error.description)")
        }
    }
}
