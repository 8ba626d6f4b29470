#if canImport(Glibc)
import Glibc
#endif
import TrellisProtocol

/// A snapshot started off the loop: which one, the last seq it holds, where the journal ended
/// when its state was taken (the lines past it stay when the journal is cut), and the work since
/// the previous snapshot it covers (given back if it fails).
struct SnapshotJob: Sendable {
    var generation: Int
    var seq: Int
    var journalSize: Int
    var workBefore: Double
    var started: Double
}

/// What writing a snapshot off the loop did: the file written and fsynced at its temporary
/// path, the sessions that could not be written (set aside on the loop), or why it failed.
struct SnapshotWrite: Sendable {
    var bytes = 0
    var sessions = 0
    var unwritable: [(name: String, reason: String)] = []
    var error: PersistenceError?

    /// Encodes `states` and writes them to `temporary` (created afresh, fsynced, not renamed:
    /// that is the loop's, which alone knows whether this snapshot is still the newest).
    /// Runs on the thread pool: it touches nothing but its arguments and the file.
    init(_ states: [SessionState], seq: Int, to temporary: String) {
        var encoded: [ByteBuffer] = []
        for state in states {
            do throws(PersistenceError) { encoded.append(try StateSnapshot.encode(state)) } catch {
                unwritable.append((state.name, error.description))
            }
        }
        let file = StateSnapshot.bytes(seq: seq, encodedSessions: encoded)
        bytes = file.count
        sessions = encoded.count
        do throws(PersistenceError) {
            let fd = try FileIO.createTemporary(temporary)
            try FileIO.writeDurably(file, to: fd, temporary: temporary)
            close(fd)
        } catch {
            self.error = error
        }
    }
}
