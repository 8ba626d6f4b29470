import Testing
import TrellisCore

/// The token in a real browser: a page opened without it shows why it was refused; once a URL
/// carried it, its cookie opens pages without it (a reload, the list's links); and when the
/// page's WebSocket is refused (trellis-web started again, with a new token) the page says why
/// instead of "not answering".
@Suite(.serialized, .enabled(if: BrowserExecutable.isAvailable,
                              "no headless Chromium: install chromium-headless-shell (tools/test does) or set TRELLIS_CHROMIUM"))
struct BrowserAccessTests {
    static func makeSession(_ harness: BrowserHarness, _ name: String) throws {
        try BrowserSessions.create(harness, name: name, layout: [
            "type": .string("flow"), "itemSize": .array([.number(100), .number(100)]),
        ], sections: [BrowserSessions.section("s0", items: 6, prefix: "c")])
    }

    /// The text of the element `id`, or of the whole document when the page is a refusal.
    static func text(_ harness: BrowserHarness, of id: String? = nil) async throws -> String {
        let target = id.map { "document.getElementById('\($0)')" } ?? "document.body"
        return try await harness.page.evaluate("(\(target) || {}).innerText || ''").stringValue ?? ""
    }

    @Test func theCookieOpensPagesWithoutTheToken() async throws {
        try await BrowserHarness.run { harness in
            try Self.makeSession(harness, "kept")
            let bare = "http://127.0.0.1:\(harness.viewer.port)/"
            // A fresh browser has no cookie: the page is refused, and says why.
            try await harness.page.navigate(to: bare + "?session=kept")
            let refused = try await Self.text(harness)
            #expect(refused.contains("needs its token"), "\(refused)")

            try await harness.open(session: "kept")
            // The same page without the token (a reload of a bookmark, a link): the cookie.
            try await harness.page.navigate(to: bare + "?session=kept")
            try await harness.waitForPage(session: "kept")
            let compared = try await harness.compare(session: "kept")
            #expect(compared.mismatches == [])
            // The list of sessions, fetched with the cookie alone.
            try await harness.page.navigate(to: bare)
            let listed = try await harness.page.waitUntil(
                "document.getElementById('sessions-body').innerText.includes('kept')", timeout: 20, "the list of sessions")
            #expect(listed == .bool(true))
        }
    }

    @Test func aRefusedWebSocketIsExplainedOnThePage() async throws {
        try await BrowserHarness.run { harness in
            try Self.makeSession(harness, "again")
            try await harness.open(session: "again")
            // trellis-web again on the same port: a new random token, which the page's URL
            // and cookie do not carry. The page retries every second and is refused.
            await harness.viewer.stop()
            let again = try await RunningWebViewer.start(socketPath: harness.trellisd.socketPath, port: harness.viewer.port)
            let shown = await outcome {
                try await harness.page.waitUntil(
                    "document.getElementById('status-state').innerText.includes('does not match')", timeout: 20,
                    "the page to say why its WebSocket is refused")
            }
            let state = try await Self.text(harness, of: "status-state")
            await again.stop()
            #expect(throws: Never.self) { try shown.get() }
            #expect(state.contains("open the URL"), "\(state)")
        }
    }
}
