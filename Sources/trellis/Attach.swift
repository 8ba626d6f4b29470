import ArgumentParser
import Foundation
import TrellisClient
import TrellisCore

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
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The session's name.") var name: String
    @Flag(help: "Attach read-only: watch without being able to change the session.") var readOnly = false
    @Flag(help: "Start with the debug layer shown (the d key toggles it).") var debug = false
    @Option(help: ArgumentHelp("Stop after drawing N frames (the first is the keyframe).", valueName: "N")) var frames: Int?
    @Option(help: ArgumentHelp("Text size COLUMNSxROWS when stdout is not a terminal (default 80x24).", valueName: "CxR"))
    var size: String?

    func checkOptions() throws {
        if let frames, frames < 1 { throw optionError("--frames takes a number of 1 or more") }
    }

    func run() throws {
        try checkOptions()
        let onTerminal = isatty(1) == 1
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
}

/// Runs a viewer and turns how it ended into a message and an exit code: 0 for q, a frame
/// limit or a closed session; 128 + the signal for a signal; 69 or 65 when attaching failed.
func runViewer(_ configuration: TerminalViewer.Configuration, prepare: (TerminalViewer) -> Void = { _ in }) throws {
    let viewer: TerminalViewer
    do { viewer = try TerminalViewer(configuration) } catch { throw report(error, json: false) }
    prepare(viewer)
    switch viewer.run() {
    case .quit, .frameLimit:
        return
    case .sessionClosed(let reason):
        print("session '\(configuration.session)' closed: \(reason)")
    case .signal(let number):
        throw ExitCode(128 + number)
    case .failed(let error):
        throw report(error, json: false)
    }
}
