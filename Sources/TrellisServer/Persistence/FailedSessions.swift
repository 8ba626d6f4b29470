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
        let prefix = try keepFiles()
        for f in failed {
            failedSessions.append(FailedSession(name: f.name, reason: f.reason, keptIn: "\(prefix)-snapshot.json, \(prefix)-journal.ndjson"))
            server.logger.error("session '\(f.name)' could not be restored and was set aside (its files are kept as \(prefix)-*): \(f.reason)")
        }
        if skippedLines > 0 { server.logger.warning("skipped \(skippedLines) journal line\(skippedLines == 1 ? "" : "s") of sessions set aside") }
        do { try compact() } catch {
            server.logger.warning("could not take a snapshot after setting sessions aside (the next start will meet them again): \(error.description)")
        }
    }

    /// While compacting: sessions whose state cannot be written are set aside as those that
    /// cannot be restored are: their files as they are now (which still hold their history) are
    /// kept in `failed/`, they are closed (viewers get `session.closed` with the reason) and
    /// listed as failed; the compaction then goes on with the others.
    func setAsideUnwritable(_ sessions: [(name: String, reason: String)]) throws(PersistenceError) {
        let prefix = try keepFiles()
        for f in sessions {
            failedSessions.append(FailedSession(name: f.name, reason: f.reason, keptIn: "\(prefix)-snapshot.json, \(prefix)-journal.ndjson"))
            server.logger.error("session '\(f.name)' could not be saved and was set aside (its files are kept as \(prefix)-*): \(f.reason). This is a bug; please report it with the requests that led here")
            if let session = server.sessions[f.name] { server.close(session, reason: "its state could not be saved, so it was set aside: \(f.reason)") }
        }
    }

    /// Copies of the snapshot and the journal as they are now, in `failed/`; their path prefix.
    private func keepFiles() throws(PersistenceError) -> String {
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
        return prefix
    }
}
