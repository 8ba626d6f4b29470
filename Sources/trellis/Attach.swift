import ArgumentParser
import Foundation
import TrellisClient
import TrellisCore
import TrellisProtocol

/// `trellis attach NAME [--read-only]`: watch a session live in the terminal (TerminalViewer).
struct Attach: ParsableCommand, OptionChecks {
    static let configuration = CommandConfiguration(
        abstract: "Watch a session live in the terminal.",
        discussion: """
            Draws every view on screen as a box scaled to the terminal, with its label, colour, \
            alpha, z-order and transform, and a status line (frame seq, fps, views bound and \
            pooled, views created and reused). Keys: q quits; arrows, j/k, h/l, PgUp/PgDn, \
            g/G scroll the session, shift+arrows fling it (3000 pt/s, as a flick on a phone; not \
            with --read-only); d shows or hides the debug layer (collision shapes, boundaries, \
            attachments, fields, contacts, scroll targets, drawn dim under the views; --debug \
            starts with it). Needs a terminal on stdout, unless --frames is given: then frames \
            are printed as text. With --json every frame is printed instead as one line \
            {"seq": N, "scene": SCENE}, the scene as `trellis --json scene` prints it (until \
            --frames, the session closing, or Ctrl-C).

            --at TIME (12.5s, 12500ms; a bare number is ms) or --at-frame N shows a past moment \
            of a recorded session (trellis record-script) instead, read-only, drawn as the live \
            view draws, the status line naming the moment (past 12.500 s · frame 750 of 1800) \
            and the next mark. The live session goes on untouched. Keys, as a timeline: \
            left/right step a frame, shift+left/right or [ and ] a second, Home/End (g/G) go \
            to the start and the end (read again: a live recording grows), space plays and \
            pauses (60 frames a second, frames dropped when a moment is slow to rebuild), n/p \
            jump to the next/previous mark, q quits. Each moment shown is one session.seek. A \
            session not recorded, or a moment before the start or past now, is refused (exit \
            65) with the range the recording covers. When stdout is not a terminal the moment \
            is printed once as text (--size) or, with --json, as session.seek's reply.
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The session's name.") var name: String
    @Flag(help: "Attach read-only: watch without being able to change the session.") var readOnly = false
    @Flag(help: "Start with the debug layer shown (the d key toggles it).") var debug = false
    @Option(help: ArgumentHelp("Stop after drawing N frames (the first is the keyframe).", valueName: "N")) var frames: Int?
    @Option(help: ArgumentHelp("Text size COLUMNSxROWS when stdout is not a terminal (default 80x24).", valueName: "CxR"))
    var size: String?
    @Option(help: ArgumentHelp("Show a past moment of a recorded session: this long after the recording began (12.5s, 12500ms).", valueName: "time"))
    var at: String?
    @Option(help: ArgumentHelp("Show a past frame of a recorded session (60 a second since the recording began).", valueName: "n"))
    var atFrame: Int?

    func checkOptions() throws {
        if let frames, frames < 1 { throw optionError("--frames takes a number of 1 or more") }
        if at != nil || atFrame != nil {
            if debug { throw optionError("--at and --at-frame show a recorded moment as it was; a past moment has no debug layer, so they do not go with --debug") }
            if frames != nil { throw optionError("--at and --at-frame show one recorded moment: when stdout is not a terminal it is printed once, so they do not go with --frames") }
        }
    }

    func run() throws {
        try checkOptions()
        let onTerminal = isatty(1) == 1
        if let moment = try SeekOptions.moment(at: at, atFrame: atFrame) {
            return try runPast(moment, onTerminal: onTerminal)
        }
        guard onTerminal || frames != nil || global.json else {
            throw usageError("attach draws on a terminal and stdout is not one; add --frames N to print N frames as text (or --json to print frames as JSON)")
        }
        // The usual connection first: it starts a server like every command, and an unknown
        // session is reported as every command reports it, before the screen is taken over.
        try withServer(global, session: name) { c in _ = try c.call("session.info", ["session": .string(name)]) }
        var configuration = TerminalViewer.Configuration(socketPath: global.socketPath, session: name)
        configuration.readOnly = readOnly
        configuration.frameLimit = frames
        configuration.debug = debug
        configuration.environment = ProcessInfo.processInfo.environment
        if global.json {
            configuration.output = .json
        } else if !onTerminal {
            let cells = try parsing { () throws(SyntaxError) in try CommandSyntax.size(size ?? "80x24") }
            configuration.output = .text(columns: Int(cells.width), rows: Int(cells.height))
        }
        try runViewer(configuration)
    }

    /// `--at`/`--at-frame`: the past moment in the viewer (or printed once without a terminal).
    private func runPast(_ moment: [String: JSONValue], onTerminal: Bool) throws {
        let past: PastMoment
        if case .number(let frame)? = moment["atFrame"] { past = .frame(Int(frame)) } else if case .number(let ms)? = moment["at"] {
            past = .at(milliseconds: ms)
        } else { return }
        // Starts a server like every command; an unknown session is reported as every command reports it.
        try withServer(global, session: name) { c in _ = try c.call("session.info", ["session": .string(name)]) }
        var configuration = TerminalViewer.Configuration(socketPath: global.socketPath, session: name)
        configuration.readOnly = true
        configuration.past = past
        configuration.environment = ProcessInfo.processInfo.environment
        if global.json {
            configuration.output = .json
            configuration.frameLimit = 1
        } else if !onTerminal {
            let cells = try parsing { () throws(SyntaxError) in try CommandSyntax.size(size ?? "80x24") }
            configuration.output = .text(columns: Int(cells.width), rows: Int(cells.height))
            configuration.frameLimit = 1
        }
        // Refusals (not recorded, out of range) in the words and exit codes snapshot --at uses.
        try runViewer(configuration, json: global.json, session: name)
    }
}

/// Runs a viewer and turns how it ended into a message and an exit code: 0 for q, a frame
/// limit or a closed session; 128 + the signal for a signal; 69 or 65 when attaching failed.
func runViewer(_ configuration: TerminalViewer.Configuration, json: Bool = false, session: String? = nil,
               prepare: (TerminalViewer) -> Void = { _ in }) throws {
    let viewer: TerminalViewer
    do { viewer = try TerminalViewer(configuration) } catch { throw report(error, json: json) }
    prepare(viewer)
    switch viewer.run() {
    case .quit, .frameLimit:
        return
    case .sessionClosed(let reason):
        print("session '\(configuration.session)' closed: \(reason)")
    case .signal(let number):
        throw ExitCode(128 + number)
    case .failed(let error):
        throw report(error, json: json, session: session)
    }
}
