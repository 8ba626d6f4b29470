import Foundation
import TrellisClient
import TrellisCore
import TrellisProtocol
import TrellisTestSupport

/// What every browser test stands on: a real trellisd, a real trellis-web on a free
/// port, and a headless Chromium with one page, all torn down (browser first) when the test's
/// body ends, however it ends.
struct BrowserHarness: Sendable {
    /// The page's viewport: wide and tall enough for the status bar and a 375×812 stage.
    static let viewport = (width: 600, height: 920)

    let trellisd: TrellisdProcess
    let viewer: RunningWebViewer
    let browser: BrowserProcess
    let devTools: DevToolsConnection
    let page: BrowserPage

    /// Runs `body` with everything started (the viewer with `--control` when `control`; trellisd
    /// with a state directory, which recording needs, when `keepsState`), within `seconds`;
    /// stops everything afterwards and then reports what `body` ended with.
    static func run<T: Sendable>(
        seconds: Double = 120, control: Bool = false, keepsState: Bool = false,
        _ body: @escaping @Sendable (BrowserHarness) async throws -> T
    ) async throws -> T {
        let trellisd = try TrellisdProcess(keepsState: keepsState)
        let viewer: RunningWebViewer
        do { viewer = try await RunningWebViewer.start(socketPath: trellisd.socketPath, control: control) } catch {
            trellisd.stop()
            throw error
        }
        let browser: Result<BrowserProcess, any Error> = await outcome { try await BrowserProcess.launch() }
        let result: Result<T, any Error> = await outcome {
            let browser = try browser.get()
            let devTools = try await DevToolsConnection.open(browser.devToolsURL)
            let ran = await outcome {
                let page = try await BrowserPage.open(in: devTools, width: viewport.width, height: viewport.height)
                let harness = BrowserHarness(trellisd: trellisd, viewer: viewer, browser: browser, devTools: devTools, page: page)
                return try await withDeadline(seconds: seconds, "the browser test") { try await body(harness) }
            }
            await devTools.close()
            return try ran.get()
        }
        if case .success(let browser) = browser { browser.stop() }
        await viewer.stop()
        trellisd.stop()
        return try result.get()
    }

    /// One request to trellisd on a connection of its own (the blocking client is not Sendable).
    @discardableResult
    func call(_ method: String, _ params: [String: JSONValue] = [:]) throws -> JSONValue {
        try trellisd.client().call(method, params)
    }

    /// The page's URL for `session`, with the token trellis-web printed.
    func url(session: String) -> String {
        "http://127.0.0.1:\(viewer.port)" + viewer.authorized("/?session=\(session)")
    }

    /// Loads the page for `session` and waits until it shows the session's current frame.
    func open(session: String) async throws {
        try await page.navigate(to: url(session: session))
        try await waitForPage(session: session)
    }

    /// The session's last frame number (session.info's `seq`).
    func seq(of session: String) throws -> Int {
        guard let seq = try call("session.info", ["session": .string(session)])["seq"]?.numberValue else {
            throw WebTestFailure("session.info has no seq")
        }
        return Int(seq)
    }

    /// Waits until `#stage`'s `data-seq` is the session's seq: the page has applied every frame
    /// published so far. The page is watched with a MutationObserver rather than polled; a
    /// page already past the seq fails at once.
    func waitForPage(session: String, timeout: Double = 20) async throws {
        let target = try seq(of: session)
        let script = """
        new Promise((resolve, reject) => {
          const stage = document.getElementById('stage');
          if (!stage) return reject(new Error('no #stage'));
          const target = \(target);
          let observer, timer;
          const check = () => {
            const seq = stage.dataset.seq === '' || stage.dataset.seq === undefined ? null : Number(stage.dataset.seq);
            if (seq === target) { observer && observer.disconnect(); clearTimeout(timer); resolve(seq); return true; }
            if (seq !== null && seq > target) { observer && observer.disconnect(); clearTimeout(timer); reject(new Error('the page is at seq ' + seq + ', past ' + target)); return true; }
            return false;
          };
          if (check()) return;
          observer = new MutationObserver(check);
          observer.observe(stage, { attributes: true, attributeFilter: ['data-seq'] });
          timer = setTimeout(() => { observer.disconnect(); reject(new Error('data-seq is ' + JSON.stringify(stage.dataset.seq) + ' after \(timeout) s, not ' + target + '; status: ' + document.getElementById('status').textContent.replace(/\\s+/g, ' '))); }, \(Int(timeout * 1000)));
        })
        """
        _ = try await page.evaluate(script, awaitPromise: true, timeout: timeout + 10)
    }

    /// Waits for the page to catch up with `session`, then lists every difference between its
    /// view elements and `query.scene` (empty when they agree), with the scene it compared.
    func compare(session: String) async throws -> (mismatches: [String], scene: JSONValue) {
        try await waitForPage(session: session)
        let scene = try call("query.scene", ["session": .string(session)])
        let snapshot = try await PageSnapshot.read(from: page)
        var found = SceneComparison.mismatches(page: snapshot, scene: scene)
        let seq = try seq(of: session)
        if snapshot.seq != String(seq) { found.append("the page's data-seq is \(snapshot.seq), the session's \(seq)") }
        return (found, scene)
    }

    /// Where test artefacts go: $TRELLIS_TEST_ARTEFACTS, else .build/test-artefacts in the package.
    static func artefactDirectory() throws -> URL {
        let directory: URL
        if let named = ProcessInfo.processInfo.environment["TRELLIS_TEST_ARTEFACTS"], !named.isEmpty {
            directory = URL(fileURLWithPath: named, isDirectory: true)
        } else {
            // This file is Tests/TrellisWebTests/Browser/BrowserHarness.swift in the package.
            var root = URL(fileURLWithPath: #filePath)
            for _ in 0..<4 { root.deleteLastPathComponent() }
            directory = root.appendingPathComponent(".build/test-artefacts", isDirectory: true)
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }
}
