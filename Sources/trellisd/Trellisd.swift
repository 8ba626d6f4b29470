import ArgumentParser
import Foundation
import Logging
import TrellisProtocol
import TrellisServer

/// The Trellis server: owns the sessions and serves JSON-RPC over a Unix socket (see
/// Protocol/PROTOCOL.md). Starts with no configuration.
@main
struct Trellisd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trellisd",
        abstract: "The Trellis layout server: headless collection views over a Unix socket.")

    @Option(help: "The Unix socket to listen on (default: $TRELLIS_SOCKET, else $XDG_RUNTIME_DIR/trellis/default.sock, else /tmp/trellis-$UID/default.sock).")
    var socket: String?

    @Option(help: "Frames per second of live sessions while something moves.")
    var fps: Double = 60

    @Option(help: "The largest request accepted, in bytes (1024 to 1073741824).")
    var maxMessageBytes: Int = ProtocolLimits.defaultMaximumMessageBytes

    @Option(help: "The most clients connected at once.")
    var maxClients: Int = 1024

    @Option(help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: String = "info"

    @Flag(help: "Print the socket path the server would use and exit.")
    var printSocketPath = false

    // Persistence (TrellisServer/Persistence): sessions survive restarts.
    @Option(help: "Where sessions are journaled so they survive a restart (default: $XDG_STATE_HOME/trellis/<socket name>-<hash of the socket path>, else the same under ~/.local/state).")
    var stateDir: String?

    @Option(help: "When the journal reaches the disk: always (before each reply), everysec (at most a second of acknowledged changes lost on power failure) or no (when the kernel decides).")
    var fsync: String = "everysec"

    @Flag(help: "Keep sessions in memory only: nothing is journaled or restored.")
    var noPersistence = false

    // A viewer that does not read its frames (Redis's client-output-buffer-limit, for viewers).
    @Option(help: "Unread output in bytes above which a viewer skips frames (it later gets one catch-up delta).")
    var viewerSoftLimit: Int = 256 * 1024

    @Option(help: "Unread output in bytes above which a viewer is disconnected.")
    var viewerHardLimit: Int = 8 * 1024 * 1024

    @Option(help: "Seconds a viewer may stay above the soft limit before it is disconnected.")
    var viewerSoftSeconds: Double = 10

    // Any client that does not read its replies (Redis's client-output-buffer-limit normal).
    @Option(help: "Unread output in bytes above which a client's further requests wait until it reads its replies.")
    var clientSoftLimit: Int = 1 << 20

    @Option(help: "Unread output in bytes above which a client is disconnected.")
    var clientHardLimit: Int = 64 << 20

    @Option(help: ArgumentHelp("Journal size in bytes that triggers compaction into a snapshot (for tests).", visibility: .hidden))
    var journalCompactBytes: Int = 4 << 20

    // Bounded work (Redis's maxclients and maxmemory, for physics): PROTOCOL.md, "Budgets and limits".
    @Option(help: "Milliseconds of physics one live tick may simulate for all live sessions; the rest is dropped (physics falls behind real time and says so).")
    var tickBudgetMs: Double = 20

    @Option(help: "Milliseconds of physics one request may simulate before the server serves others; a longer clock.advance goes on in later loop turns.")
    var requestBudgetMs: Double = 20

    @Option(help: "The most free bodies in one session.")
    var maxBodies: Int = 10_000

    @Option(help: "The most dynamic behaviours in one session.")
    var maxBehaviors: Int = 10_000

    @Option(help: "The most contact points one physics step of a session solves; past it the step leaves the rest out.")
    var maxContacts: Int = 65_536

    // Chunked reloads (data.reload.begin … commit): what all pending uploads may stage together.
    @Option(help: "The most items staged at once in all chunked reloads not yet committed.")
    var maxUploadItems: Int = 10_000_000

    @Option(help: "The most bytes (about what they hold in memory) staged at once in all chunked reloads not yet committed.")
    var maxUploadBytes: Int = 1 << 30

    // Seeks (for tests: a small history budget, and replays counted in loop turns).
    @Option(help: ArgumentHelp("The most bytes of changes a recording's seek history keeps (for tests).", visibility: .hidden))
    var historyBytes: Int = 32 << 20

    @Option(help: ArgumentHelp("The most changes a seek replays in one loop turn, besides the request budget (for tests).", visibility: .hidden))
    var seekChangesPerTurn: Int = Int.max

    func validate() throws {
        guard fps > 0, fps <= 1000 else { throw ValidationError("--fps must be between 1 and 1000") }
        guard maxMessageBytes >= 1024, maxMessageBytes <= ProtocolLimits.largestMaximumMessageBytes else {
            throw ValidationError("--max-message-bytes must be between 1024 and \(ProtocolLimits.largestMaximumMessageBytes) bytes (1 GiB)")
        }
        guard maxClients >= 1 else { throw ValidationError("--max-clients must be at least 1") }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical")
        }
        guard FsyncPolicy(rawValue: fsync) != nil else { throw ValidationError("--fsync must be always, everysec or no") }
        guard viewerSoftLimit >= 1024, viewerHardLimit >= viewerSoftLimit else {
            throw ValidationError("--viewer-soft-limit must be at least 1024 bytes and --viewer-hard-limit at least the soft limit")
        }
        guard clientSoftLimit >= 1024, clientHardLimit >= clientSoftLimit else {
            throw ValidationError("--client-soft-limit must be at least 1024 bytes and --client-hard-limit at least the soft limit")
        }
        guard viewerSoftSeconds > 0 else { throw ValidationError("--viewer-soft-seconds must be above 0") }
        guard journalCompactBytes >= 1 else { throw ValidationError("--journal-compact-bytes must be at least 1") }
        guard tickBudgetMs >= 1, tickBudgetMs <= 1000 else { throw ValidationError("--tick-budget-ms must be from 1 to 1000") }
        guard requestBudgetMs >= 1, requestBudgetMs <= 10_000 else { throw ValidationError("--request-budget-ms must be from 1 to 10000") }
        guard maxBodies >= 0, maxBodies <= 1_000_000 else { throw ValidationError("--max-bodies must be from 0 to 1000000") }
        guard maxBehaviors >= 0, maxBehaviors <= 1_000_000 else { throw ValidationError("--max-behaviors must be from 0 to 1000000") }
        guard maxContacts >= 1, maxContacts <= 10_000_000 else { throw ValidationError("--max-contacts must be from 1 to 10000000") }
        guard maxUploadItems >= 0, maxUploadItems <= 1_000_000_000 else { throw ValidationError("--max-upload-items must be from 0 to 1000000000") }
        guard historyBytes >= 0 else { throw ValidationError("--history-bytes must be at least 0") }
        guard seekChangesPerTurn >= 1 else { throw ValidationError("--seek-changes-per-turn must be at least 1") }
        guard maxUploadBytes >= 0, maxUploadBytes <= 1 << 40 else { throw ValidationError("--max-upload-bytes must be from 0 to 1099511627776 (1 TiB)") }
    }

    func run() throws {
        let path = socket ?? SocketPath.resolve(environment: ProcessInfo.processInfo.environment, uid: getuid())
        if printSocketPath {
            print(path)
            return
        }
        let level = Logger.Level(rawValue: logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        MemoryTrim.fixAllocatorThresholds()
        let logger = Logger(label: "trellisd")
        var configuration = ServerConfiguration(socketPath: path)
        configuration.framesPerSecond = fps
        configuration.maximumMessageBytes = maxMessageBytes
        configuration.maximumClients = maxClients
        configuration.viewerSoftLimitBytes = viewerSoftLimit
        configuration.viewerHardLimitBytes = viewerHardLimit
        configuration.viewerSoftLimitSeconds = viewerSoftSeconds
        configuration.clientSoftLimitBytes = clientSoftLimit
        configuration.clientHardLimitBytes = clientHardLimit
        if !noPersistence {
            configuration.stateDirectory = stateDir
                ?? StatePaths.defaultDirectory(environment: ProcessInfo.processInfo.environment, socketPath: path)
        }
        configuration.fsyncPolicy = FsyncPolicy(rawValue: fsync) ?? .everysec
        configuration.journalCompactionBytes = journalCompactBytes
        configuration.tickBudgetMilliseconds = tickBudgetMs
        configuration.requestBudgetMilliseconds = requestBudgetMs
        configuration.maximumBodies = maxBodies
        configuration.maximumBehaviors = maxBehaviors
        configuration.maximumContacts = maxContacts
        configuration.maximumUploadItems = maxUploadItems
        configuration.maximumUploadBytes = maxUploadBytes
        configuration.maximumHistoryBytes = historyBytes
        configuration.seekChangesPerTurn = seekChangesPerTurn
        do {
            let server = try Server(configuration: configuration, logger: logger)
            server.run()
        } catch {
            FileHandle.standardError.write(Data("trellisd: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }
}
