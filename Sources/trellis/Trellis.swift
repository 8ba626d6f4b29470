import ArgumentParser

/// The Trellis command-line client: drives sessions of a `trellisd` server (started in the
/// background when none runs, like tmux), plus the in-process `demo`.
@main
struct Trellis: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trellis",
        abstract: "Drive a headless collection view from the shell.",
        discussion: """
            Talks to trellisd on --socket, else $TRELLIS_SOCKET, else \
            $XDG_RUNTIME_DIR/trellis/default.sock, else /tmp/trellis-$UID/default.sock, and \
            starts it in the background when nothing listens there. Index paths are \
            section:item, ranges section:first..last (inclusive). Output is text, numbers rounded \
            for people; --json prints the server's raw result.

            \(Exit.help)
            """,
        subcommands: [
            New.self, Fork.self, Ls.self, Info.self, Kill.self,
            Reload.self, Apply.self, Batch.self, Insert.self, Delete.self, Move.self,
            LayoutCommand.self, Resize.self, Inset.self, Scroll.self, ScrollConfig.self, Drag.self, Fling.self, Touch.self, Tap.self, Hit.self, Select.self, Deselect.self,
            Query.self, SceneCommand.self, Advance.self, Stats.self, Shutdown.self,
            Body.self, Dynamics.self,
            Snapshot.self, Record.self, RecordScript.self, Mark.self, Plot.self, RawRPC.self,
            Run.self,
            Attach.self, Web.self,
            Demo.self,
        ])

    // Declared here too so `trellis --socket PATH ls` reads as well as `trellis ls --socket PATH`.
    @OptionGroup var global: GlobalOptions
}
