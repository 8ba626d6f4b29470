import Foundation
import Testing
import TrellisTestSupport
@testable import TrellisClient
import TrellisCore
import TrellisProtocol

/// `trellis attach` in a real terminal: a tmux server on a private socket runs the viewer in a
/// 100×40 pane, the test changes the session and reads the pane back (`capture-pane`), and what
/// is drawn must be the server's scene: every label where the point → cell mapping puts it.
@Suite(.serialized) struct AttachTmuxTests {
    static let columns = 100, rows = 40

    /// 15 items of 100×80 in a 400×312 view: 3 a row at x 0, 150, 300, rows 90 points apart;
    /// the pane's 100×39 cells above the status line are exactly 4 points a column, 8 a row.
    func makeSession(_ server: CLIServer) throws {
        #expect(server.trellis("new", "watch", "--bounds", "400x312", "--item-size", "100x80", "--manual-clock").status == 0)
        #expect(server.trellis("reload", "watch", "--items", "15").status == 0)
    }

    @Test func drawsTheSceneFollowsABatchScrollsWithKeysAndQuitsCleanly() throws {
        let server = try CLIServer()
        defer { server.stop() }
        try makeSession(server)
        let tmux = try TmuxPane(command: [builtExecutable("trellis").path, "--socket", server.socketPath, "attach", "watch"],
                                columns: Self.columns, rows: Self.rows)
        defer { tmux.kill() }

        // The keyframe, drawn as the server's scene says.
        var scene = try serverScene(server)
        var seq = try serverSeq(server)
        var screen = try tmux.waitForScreen("the keyframe") { $0.last?.contains("seq \(seq) ·") == true && $0.joined().contains("#14") == false && $0.joined().contains("#8") }
        checkLabels(screen, scene)
        #expect(screen.last?.contains("watch · seq \(seq)") == true)
        #expect(screen.last?.contains("views \(scene.views.count)") == true)
        #expect(screen[0].hasPrefix("┌") && screen[9].hasPrefix("└"))

        // A scripted batch: #0 goes, 'fresh' comes in second place; no animation, so one frame.
        #expect(server.trellis("batch", "watch", "--delete", "0:0", "--insert", "0:1=fresh", "--no-animation").status == 0)
        scene = try serverScene(server)
        seq = try serverSeq(server)
        screen = try tmux.waitForScreen("the batch") { $0.last?.contains("seq \(seq) ·") == true }
        #expect(!screen.joined().contains("#0 "))
        #expect(screen.joined().contains("fresh"))
        checkLabels(screen, scene)

        // An animated move, sampled half way on the manual clock: boxes drawn where the scene has them.
        #expect(server.trellis("move", "watch", "0:0", "0:4", "--duration", "1", "--curve", "linear").status == 0)
        #expect(server.trellis("advance", "watch", "500ms").status == 0)
        scene = try serverScene(server)
        seq = try serverSeq(server)
        screen = try tmux.waitForScreen("half an animation") { $0.last?.contains("seq \(seq) ·") == true }
        // The moving item and those it crosses are left out; the other rows still count.
        checkLabels(screen, scene, atLeast: 4)
        #expect(server.trellis("advance", "watch", "600ms").status == 0)

        // j scrolls three rows (24 points) through scroll.to; G to the bottom (content 440 high).
        try tmux.sendKeys("j")
        try waitForOffset(server, 24)
        scene = try serverScene(server)
        seq = try serverSeq(server)
        screen = try tmux.waitForScreen("scrolled by j") { $0.last?.contains("seq \(seq) ·") == true }
        checkLabels(screen, scene)
        try tmux.sendKeys("G")
        try waitForOffset(server, 128)

        // q: the viewer exits 0 and the shell's screen is back (the alternate screen is gone).
        try tmux.sendKeys("q")
        let status = try tmux.waitForExit()
        #expect(status == 0)
        #expect(!tmux.capture().joined().contains("seq "))
    }

    @Test func readOnlyIgnoresScrollKeysAndAClosedSessionEndsTheViewer() throws {
        let server = try CLIServer()
        defer { server.stop() }
        try makeSession(server)
        let tmux = try TmuxPane(command: [builtExecutable("trellis").path, "--socket", server.socketPath, "attach", "watch", "--read-only"],
                                columns: Self.columns, rows: Self.rows)
        defer { tmux.kill() }
        _ = try tmux.waitForScreen("the keyframe") { $0.last?.contains("read-only") == true && $0.joined().contains("#8") }
        try tmux.sendKeys("j")
        // The note proves the key arrived; nothing was sent.
        _ = try tmux.waitForScreen("the read-only note") { $0.last?.contains("scroll keys off") == true }
        #expect(try serverScene(server).contentOffset == .zero)
        let stats = try RPCClient(path: server.socketPath).call("stats", ["session": .string("watch")])
        guard case .array(let viewers)? = stats["viewers"] else {
            Issue.record("stats has no viewers: \(stats)")
            return
        }
        #expect(viewers.first?["readOnly"] == .bool(true))

        #expect(server.trellis("kill", "watch").status == 0)
        #expect(try tmux.waitForExit() == 0)
        #expect(tmux.capture().joined().contains("session 'watch' closed: destroyed"))
    }

    /// iCarousel's rotary ring as the demo shows it, in an 80×24 pane: the cards in front drawn
    /// with heavy strokes and bold, those at the back (above them: the eye is raised) with light
    /// dashed ones and dim, so the ring reads as round; the nearest card's label whole.
    @Test func aRotaryCarouselReadsRoundWithHeavyFrontAndLightBackCards() throws {
        let server = try CLIServer()
        defer { server.stop() }
        #expect(server.trellis("new", "ring", "--bounds", "480x264", "--layout", "carousel", "--style", "rotary", "--item-size", "60x56",
                               "--set", "count=14", "--set", "wrap=false", "--set", "viewpointOffset=0,-80",
                               "--set", "perspective=-0.0035", "--manual-clock").status == 0)
        #expect(server.trellis("reload", "ring", "--items", "14").status == 0)
        let tmux = try TmuxPane(command: [builtExecutable("trellis").path, "--socket", server.socketPath, "attach", "ring"],
                                columns: 80, rows: 24)
        defer { tmux.kill() }
        let screen = try tmux.waitForScreen("the ring") { $0.last?.contains("ring · seq") == true && $0.joined().contains("#0") }
        let text = screen.joined(separator: "\n")
        // The front card (#0, facing the eye) heavy, with its label whole; the back row light.
        let front = try #require(screen.firstIndex { $0.contains("#0") })
        #expect(screen[front].contains("┃"), "\(text)")
        #expect(screen.contains { $0.contains("┏━") } && screen.contains { $0.contains("┗━") }, "\(text)")
        let back = try #require(screen.firstIndex { $0.contains("╌") }, "\(text)")
        #expect(back < front && !screen[back].contains("━"))
        // In colour: bold strokes in front, dim ones behind (SGR 1 and 2 as tmux repeats them).
        let styled = tmux.capture(escapes: true)
        #expect(styled.contains { $0.contains("━") && $0.contains("\u{1b}[1") }, "\(styled.joined(separator: "\n"))")
        #expect(styled.contains { $0.contains("╌") && ($0.contains("\u{1b}[2m") || $0.contains("\u{1b}[2;")) })
        try tmux.sendKeys("q")
        #expect(try tmux.waitForExit() == 0)
    }

    /// The demo in an 80×24 terminal: each step's caption on the top line, the scene under it,
    /// the status line at the bottom; with --steps it stops by itself, exit 0.
    @Test func theDemoCaptionsEachStepAboveTheScene() throws {
        let server = try CLIServer()
        defer { server.stop() }
        let tmux = try TmuxPane(command: [builtExecutable("trellis").path, "--socket", server.socketPath, "demo",
                                          "--steps", "3", "--interval", "0.2"], columns: 80, rows: 24)
        defer { tmux.kill() }
        var screen = try tmux.waitForScreen("the first caption") { $0.first?.hasPrefix(" 1/13 batch updates: insert ") == true }
        #expect(screen.last?.contains("demo · seq") == true)
        // The scene starts under the caption: the first row of cells.
        #expect(screen[1].isEmpty || screen[2].contains("┌"), "\(screen.joined(separator: "\n"))")
        screen = try tmux.waitForScreen("the third caption") { $0.first?.hasPrefix(" 3/13 scroll physics: a fling decelerates") == true }
        #expect(screen.first?.unicodeScalars.count ?? 0 <= 80)
        #expect(try tmux.waitForExit() == 0)
    }

    // MARK: Checks

    /// Every view wholly inside the visible rect shows its label on its centre row, centred
    /// between the box's sides, with the cells computed by the viewer's point → cell mapping.
    func checkLabels(_ screen: [String], _ scene: Scene, atLeast minimum: Int = 6, sourceLocation: SourceLocation = #_sourceLocation) {
        let mapping = ViewportMapping(visible: Rect(origin: scene.contentOffset, size: scene.boundsSize),
                                      columns: Self.columns, rows: Self.rows - 1)
        let visible = Rect(origin: scene.contentOffset, size: scene.boundsSize)
        let lines = screen.map { Array($0.unicodeScalars) }
        var checked = 0
        for view in scene.views where view.attributes.alpha >= 0.66 {
            let frame = view.attributes.frame
            guard frame.minX >= visible.minX, frame.maxX <= visible.maxX, frame.minY >= visible.minY, frame.maxY <= visible.maxY else { continue }
            // Boxes that overlap another would hide each other's labels.
            guard !scene.views.contains(where: { $0.view != view.view && $0.attributes.frame.intersects(frame) }) else { continue }
            let box = mapping.cellBox(frame)
            let label = Array(view.displayLabel.unicodeScalars)
            let row = Int(mapping.cellPoint(frame.center).y.rounded(.down))
            let inside = box.right - box.left - 1
            let column = box.left + 1 + (inside - label.count) / 2
            let drawn = row < lines.count && lines[row].count >= column + label.count
                ? String(String.UnicodeScalarView(lines[row][column..<(column + label.count)])) : "(nothing)"
            #expect(drawn == String(String.UnicodeScalarView(label)), "view \(view.view) at row \(row), column \(column)\n\(screen.joined(separator: "\n"))",
                    sourceLocation: sourceLocation)
            // Its box: corners at the mapped cells.
            let top = box.top < lines.count ? lines[box.top] : []
            #expect(top.count > box.right && top[box.left] == "┌" && top[box.right] == "┐", "the box of view \(view.view)", sourceLocation: sourceLocation)
            checked += 1
        }
        #expect(checked >= minimum, "only \(checked) views checked", sourceLocation: sourceLocation)
    }

    func serverScene(_ server: CLIServer) throws -> Scene {
        try WireScene.scene(try RPCClient(path: server.socketPath).call("query.scene", ["session": .string("watch")]))
    }

    func serverSeq(_ server: CLIServer) throws -> Int {
        Int(try RPCClient(path: server.socketPath).call("stats", ["session": .string("watch")])["seq"]?.numberValue ?? -1)
    }

    func waitForOffset(_ server: CLIServer, _ y: Double) throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if try serverScene(server).contentOffset == Point(0, y) { return }
            usleep(20_000)
        }
        Issue.record("the offset never became 0,\(y): \(try serverScene(server).contentOffset)")
    }
}

/// One tmux server on a private socket (`-L`) with one pane running a command, its pane kept
/// after the command exits so the exit status and the last screen can be read.
final class TmuxPane {
    let socketName = "trellis-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let columns: Int, rows: Int

    init(command: [String], columns: Int, rows: Int) throws {
        self.columns = columns
        self.rows = rows
        let quoted = command.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        // A UTF-8 locale for box drawing and 256 colours, whatever the test runner has. The exit
        // status is printed into the pane (tmux's #{pane_dead_status} proved unreliable here).
        let shell = "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color " + quoted + "; echo \"[exited $?]\""
        let r = tmux(["new-session", "-d", "-s", "t", "-x", "\(columns)", "-y", "\(rows)", shell, ";",
                      "set-option", "-t", "t", "remain-on-exit", "on"])
        guard r.status == 0 else { throw ClientError.launch("tmux new-session failed (\(r.status)): \(r.output)") }
        serverPID = Int32(tmux(["display-message", "-p", "-t", "t", "#{pid}"]).output.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The tmux server's pid: `kill-server` here answers but has been seen to leave the server
    /// running, so `kill` makes sure.
    private var serverPID: Int32?

    /// Runs a tmux command to completion; its stdout and stderr together.
    @discardableResult
    func tmux(_ arguments: [String]) -> (status: Int32, output: String) {
        // posix_spawn and waitpid, not Foundation's Process: the tmux server `new-session` forks
        // keeps whatever its client inherited, and Process waits until every copy of its own
        // descriptors is closed, that is until the tmux server exits.
        let file = NSTemporaryDirectory() + "\(socketName)-\(UInt32.random(in: 0...UInt32.max)).out"
        defer { unlink(file) }
        ServerLauncher.markInheritedDescriptorsCloseOnExec()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var env = ProcessInfo.processInfo.environment
        env["TMUX"] = nil
        env["LANG"] = "C.UTF-8"
        env["LC_ALL"] = "C.UTF-8"
        let argv = (["tmux", "-u", "-f", "/dev/null", "-L", socketName] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in argv + envp { free(p) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, "tmux", &actions, nil, argv, envp)
        guard spawned == 0 else { return (-1, "cannot run tmux: \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let output = FileManager.default.contents(atPath: file).map { String(decoding: $0, as: UTF8.self) } ?? ""
        // WEXITSTATUS is a macro Swift does not import.
        return ((status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f), output)
    }

    /// The pane's lines as shown now; with `escapes`, with the SGR sequences of their styles.
    func capture(escapes: Bool = false) -> [String] {
        var lines = tmux(["capture-pane", "-p"] + (escapes ? ["-e"] : []) + ["-t", "t"]).output.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    func sendKeys(_ keys: String) throws {
        let r = tmux(["send-keys", "-t", "t", keys])
        guard r.status == 0 else { throw ClientError.launch("tmux send-keys failed: \(r.output)") }
    }

    /// Polls the pane until `condition` holds (10 s at most); a timeout records the screen.
    func waitForScreen(_ what: String, _ condition: ([String]) -> Bool, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        let deadline = Date().addingTimeInterval(10)
        var screen = capture()
        while Date() < deadline {
            if condition(screen) { return screen }
            usleep(30_000)
            screen = capture()
        }
        Issue.record("timed out waiting for \(what); the pane shows:\n\(screen.joined(separator: "\n"))", sourceLocation: sourceLocation)
        throw ClientError.timeout(method: what, seconds: 10)
    }

    /// The command's exit status once it has exited (10 s at most), read from the pane.
    func waitForExit() throws -> Int32 {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            for line in capture() where line.hasPrefix("[exited ") && line.hasSuffix("]") {
                if let status = Int32(line.dropFirst(8).dropLast()) { return status }
            }
            usleep(30_000)
        }
        Issue.record("the command did not exit; the pane shows:\n\(capture().joined(separator: "\n"))")
        throw ClientError.timeout(method: "the viewer to exit", seconds: 10)
    }

    func kill() {
        tmux(["kill-server"])
        guard let pid = serverPID else { return }
        let deadline = Date().addingTimeInterval(2)
        while Date() < deadline, Glibc.kill(pid, 0) == 0 { usleep(20_000) }
        if Glibc.kill(pid, 0) == 0 { _ = Glibc.kill(pid, SIGKILL) }
    }
}
