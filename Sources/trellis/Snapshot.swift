import ArgumentParser
import Foundation
import TrellisClient
import TrellisCore
import TrellisDynamics
import TrellisProtocol

/// `trellis snapshot NAME --svg out.svg [--at-time ms]`: the scene now as an SVG picture.
struct Snapshot: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the session's scene (query.scene) as an SVG picture.",
        discussion: """
            One group per bound view (data-view, data-item, data-section, data-id, …) holding a \
            rectangle at its frame and its label (data.label, else the item id); colour from \
            data.color (a name or #rrggbb), else one derived from the reuse id; alpha as \
            opacity; transforms as SVG matrices, or projected polygons when they have \
            perspective; hidden views left out; back to front by z-index. The viewBox is the \
            visible rect (content offset and bounds), so shapes sit at content coordinates.

            --debug draws the debug layer over the views (UIKit Dynamics' debugEnabled): each \
            item's collision shape, centre of mass and velocity, the reference bounds and \
            boundaries, attachments, snap points, fields, contacts, and the scroll's content \
            bounds, rubber-band edge and fling target; the picture is then taken as a read-only \
            debug viewer sees it (session.attach with debug), each shape of class debug-KIND.

            --at-time MS is an absolute time on a manual clock: the session is advanced to it \
            (clock.advance, which publishes a frame to its viewers) before the picture is taken. \
            A time before the session's current time is refused (exit 65), and so is --at-time \
            on a live-clock session, whose time follows the wall clock.

            --at TIME (12.5s, 12500ms; a bare number is ms) and --at-frame N draw a past moment \
            of a recorded session (trellis record-script), read-only: TIME after the recording \
            began, or frame N of it (60 a second). The server rebuilds the moment from the \
            recording's history (session.seek) and the live session goes on untouched. A moment \
            before the start or past now is refused with the range the recording covers.

            Exit 73 when the file cannot be written.
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The session's name.") var name: String
    @Option(help: ArgumentHelp("Where to write the SVG ('-' for standard output).", valueName: "file")) var svg: String
    @Option(help: ArgumentHelp("Advance a manual clock to this absolute time first (1500, 1500ms, 1.5s).", valueName: "ms"))
    var atTime: String?
    @Flag(help: "Draw the debug layer (collision shapes, boundaries, attachments, fields, contacts, scroll targets) over the views.")
    var debug = false
    @Option(help: ArgumentHelp("A past moment of a recorded session: this long after the recording began (12.5s, 12500ms).", valueName: "time"))
    var at: String?
    @Option(help: ArgumentHelp("A past frame of a recorded session (60 a second since the recording began).", valueName: "n"))
    var atFrame: Int?

    func run() throws {
        let target = try atTime.map { text in try parsing { () throws(SyntaxError) in try CommandSyntax.milliseconds(text) } }
        let moment = try SeekOptions.moment(at: at, atFrame: atFrame)
        if moment != nil, atTime != nil || debug {
            throw ValidationError("--at and --at-frame draw a recorded moment as it was; they do not go with --at-time or --debug")
        }
        try withServer(global, session: name) { c in
            if let target { try advance(c, to: target) }
            // The debug layer travels only to viewers: attach as a read-only one for it.
            let result = if let moment {
                try c.call("session.seek", moment.merging(["session": .string(name)]) { a, _ in a })["scene"] ?? .null
            } else if debug {
                try c.call("session.attach", ["session": .string(name), "readOnly": .bool(true), "debug": .bool(true)])
            } else {
                try c.call("query.scene", ["session": .string(name)])
            }
            let scene: Scene
            var shapes: [DebugShape]?
            do {
                scene = try WireScene.scene(debug ? result["keyframe"] ?? .null : result)
                if debug { shapes = try WireDebug.layer(result["debug"] ?? .null) }
            } catch let error as ParamError {
                throw report(ClientError.badReply("\(moment != nil ? "session.seek" : debug ? "session.attach" : "query.scene"): \(error.message)"), json: global.json)
            }
            try writeFile(SVGRenderer(session: name).render(scene, debug: shapes), to: svg)
            guard svg != "-" else { return }
            let drawn = SVGRenderer.drawingOrder(scene.views).count
            var summary: [String: JSONValue] = ["file": .string(svg), "views": .number(Double(drawn)),
                                                "time": .number(scene.time * 1000)]
            if let shapes { summary["debugShapes"] = .number(Double(shapes.count)) }
            let shapesNote = shapes.map { ", \($0.count) debug shapes" } ?? ""
            c.emit(.object(summary)) { _ in ["\(svg): \(drawn) views\(shapesNote) at \(SVGRenderer.number(scene.time * 1000))ms"] }
        }
    }

    /// Moves a manual clock to `target` ms, in steps clock.advance accepts.
    private func advance(_ c: ClientContext, to target: Double) throws {
        let info = try c.call("session.info", ["session": .string(name)])
        guard info["clock"]?.stringValue == "manual" else {
            printError("trellis: --at-time needs a manual-clock session; '\(name)' has a live clock, whose time follows the wall clock")
            throw ExitCode(Exit.refused)
        }
        var now = info["time"]?.numberValue ?? 0
        // Times are kept to the microsecond, so anything closer counts as now.
        guard target >= now - 0.0005 else {
            printError("trellis: --at-time \(SVGRenderer.number(target))ms is in the past: session '\(name)' is at \(SVGRenderer.number(now))ms and a clock only moves forward")
            throw ExitCode(Exit.refused)
        }
        while target - now > 0.0005 {
            let step = min(target - now, Self.longestAdvance)
            let reply = try c.call("clock.advance", ["session": .string(name), "ms": .number(step)])
            now = reply["time"]?.numberValue ?? now + step
        }
    }

    /// clock.advance's upper bound on `ms` (an hour).
    static let longestAdvance = 3_600_000.0
}

/// EX_CANTCREAT (sysexits.h): an output file that cannot be written.
let cannotCreateExit: Int32 = 73

/// Writes `text` to `path` (`-`: standard output), replacing the file atomically; exit 73 with
/// the reason when it cannot.
func writeFile(_ text: String, to path: String) throws {
    if path == "-" {
        FileHandle.standardOutput.write(Data(text.utf8))
        return
    }
    do {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
        printError("trellis: cannot write \(path): \((error as NSError).localizedDescription)")
        throw ExitCode(cannotCreateExit)
    }
}
