import ArgumentParser
import Foundation
import TrellisClient
import TrellisCore
import TrellisProtocol

/// `trellis record NAME --svg-dir DIR --frames N`: attaches as a read-only viewer and writes
/// one SVG per frame, mirroring the scene from the keyframe and the frame deltas.
struct Record: ParsableCommand, OptionChecks {
    static let configuration = CommandConfiguration(
        abstract: "Attach to a session read-only and write one SVG picture per frame.",
        discussion: """
            The first file is the keyframe the session sends on attach; each later one is the \
            scene after a frame notification, mirrored from the deltas (what every viewer \
            holds). Files are DIR/frame-0001-seq12.svg, …: the file's number, then the frame's \
            seq (a gap in seq means the server skipped frames for this viewer). The directory \
            is created when missing. One line per file is printed (--json: one object).

            --debug draws the debug layer over the views in every file (as snapshot --debug); \
            a frame that changes only the debug layer is a file of its own, with the seq of \
            the frame before it.

            Stops after --frames files. A session only publishes frames when its scene changes \
            (a manual clock: when someone advances it or changes it), so a wait longer than \
            --frame-timeout seconds stops the recording with exit 69, as does the session \
            closing (destroyed, or the server shutting down). Exit 73 when a file cannot be \
            written.
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The session's name.") var name: String
    @Option(help: ArgumentHelp("The directory to write the SVG files into.", valueName: "dir")) var svgDir: String
    @Option(help: ArgumentHelp("How many files to write, the keyframe included.", valueName: "n")) var frames: Int
    @Option(help: ArgumentHelp("Seconds to wait for each frame before giving up.", valueName: "seconds"))
    var frameTimeout: Double = 30
    @Flag(help: "Draw the debug layer (collision shapes, boundaries, attachments, fields, contacts, scroll targets) over the views.")
    var debug = false

    func checkOptions() throws {
        guard frames >= 1 else { throw optionError("--frames must be at least 1") }
        guard frameTimeout > 0 else { throw optionError("--frame-timeout must be above 0 seconds") }
    }

    func run() throws {
        try checkOptions()
        do {
            try FileManager.default.createDirectory(atPath: svgDir, withIntermediateDirectories: true)
        } catch {
            printError("trellis: cannot create \(svgDir): \((error as NSError).localizedDescription)")
            throw ExitCode(cannotCreateExit)
        }
        // Frames arrive as notifications, which only RPCClient reads, so this command connects
        // itself the way withServer does (auto-start included) and maps errors the same way.
        do {
            var launcher = ServerLauncher(socketPath: global.socketPath)
            launcher.callTimeout = global.timeout
            let client = try launcher.connect(autoStart: !global.noStart)
            defer { client.close() }
            try record(client)
        } catch let error as ClientError {
            throw report(error, json: global.json, noStart: global.noStart, session: name)
        }
    }

    private func record(_ client: RPCClient) throws {
        let attached = try client.call("session.attach", ["session": .string(name), "readOnly": .bool(true), "debug": .bool(debug)])
        guard let keyframe = attached["keyframe"], let firstSeq = attached["seq"]?.numberValue else {
            throw ClientError.badReply("session.attach: no keyframe or seq")
        }
        var state = ViewerState(keyframe: try decoded { () throws(ParamError) in try WireScene.scene(keyframe) })
        var layer: DebugLayerState? = debug ? DebugLayerState(try decoded { () throws(ParamError) in try WireDebug.layer(attached["debug"] ?? .null) }) : nil
        var seq = Int(firstSeq)
        let width = max(4, String(frames).count)
        try write(state, layer, seq: seq, number: 1, width: width)
        var written = 1
        // How far a long recording is (on a terminal only), erased before each file's line.
        let progress = ProgressLine()
        defer { progress.clear() }
        while written < frames {
            progress.update("record \(name): \(written) of \(frames) files, waiting for the next frame")
            guard let message = try progress.ticking({ try client.nextNotification(timeout: frameTimeout) }) else {
                printError("trellis: no frame from '\(name)' within \(HumanNumber.format(frameTimeout)) s after \(written) of \(frames) files (a manual clock publishes frames only when the session changes: advance it, or raise --frame-timeout)")
                throw ExitCode(Exit.unavailable)
            }
            let params = message["params"]
            // A viewer watches one session, but a stray message for another is not ours to draw.
            guard params?["session"]?.stringValue == name else { continue }
            switch message["method"]?.stringValue {
            case "frame":
                guard let params else { continue }
                let delta = try decoded { () throws(ParamError) in try WireScene.delta(params) }
                let debugDelta = try decoded { () throws(ParamError) in try WireDebug.delta(params) }
                let frameSeq = Int(params["seq"]?.numberValue ?? Double(seq + 1))
                // The keyframe already holds every frame up to its seq; a frame that changes
                // only the debug layer repeats the seq it belongs to.
                guard frameSeq > seq || (layer != nil && debugDelta != nil && frameSeq == seq) else { continue }
                state.apply(delta)
                if let debugDelta { layer?.apply(debugDelta) }
                seq = frameSeq
                written += 1
                try write(state, layer, seq: seq, number: written, width: width)
            case "session.closed":
                let reason = params?["reason"]?.stringValue ?? "closed"
                printError("trellis: session '\(name)' closed (\(reason)) after \(written) of \(frames) files")
                throw ExitCode(Exit.unavailable)
            default:
                continue  // update.completed, selection.changed, …: nothing to draw.
            }
        }
    }

    /// Writes the mirrored scene as file `number` and reports it on stdout.
    private func write(_ state: ViewerState, _ layer: DebugLayerState?, seq: Int, number: Int, width: Int) throws {
        let digits = String(number)
        let file = "frame-" + String(repeating: "0", count: max(0, width - digits.count)) + digits + "-seq\(seq).svg"
        let scene = state.scene
        try writeFile(SVGRenderer(session: name, seq: seq).render(scene, debug: layer?.sorted), to: svgDir + "/" + file)
        let time = scene.time * 1000
        let drawn = SVGRenderer.drawingOrder(scene.views).count
        let line = global.json
            ? JSONWriter.string(.object(["file": .string(file), "seq": .number(Double(seq)), "time": .number(time),
                                         "views": .number(Double(drawn))]))
            : "\(file): seq \(seq), \(drawn) views at \(SVGRenderer.number(time))ms"
        // Unbuffered, so someone watching the output live (or a test) sees each file as it lands.
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// A decoding failure of a server message is the server's fault: exit 70 with the reason.
    private func decoded<T>(_ body: () throws(ParamError) -> T) throws -> T {
        do { return try body() } catch { throw ClientError.badReply(error.message) }
    }
}
