import Testing
import TrellisCore

/// The page's scripts in a real browser: the ones it runs are viewer.js and controls.js as
/// they are on disk, in that order, each parses on its own, and viewer.js made the
/// `window.trellisMirror` that controls.js builds on.
@Suite(.serialized, .enabled(if: BrowserExecutable.isAvailable,
                              "no headless Chromium: install chromium-headless-shell (tools/test does) or set TRELLIS_CHROMIUM"))
struct BrowserPageScriptTests {
    @Test func theScriptsAreTheFilesAndParse() async throws {
        let files = try PageFiles.scripts.map { try PageFiles.text($0) }
        try await BrowserHarness.run { harness in
            try await harness.page.navigate(to: "http://127.0.0.1:\(harness.viewer.port)" + harness.viewer.authorized("/"))
            let texts = try await harness.page.evaluate("[...document.scripts].map((s) => s.textContent)")
                .arrayValue?.compactMap(\.stringValue) ?? []
            #expect(texts.count == files.count, "the page runs \(texts.count) scripts, not \(files.count)")
            for (name, (text, file)) in zip(PageFiles.scripts, zip(texts, files)) {
                let difference = PageFiles.difference(text, file)
                #expect(difference == nil, "the browser's \(name) differs from the file: \(difference ?? "")")
            }
            // new Function parses a script's text without running it: null, or the SyntaxError.
            let parsed = try await harness.page.evaluate("""
                [...document.scripts].map((s) => { try { new Function(s.textContent); return null; } catch (e) { return String(e); } })
                """)
            #expect(parsed == .array(files.map { _ in .null }), "a script does not parse")
            let mirror = try await harness.page.evaluate("typeof window.trellisMirror")
            #expect(mirror == .string("object"))
        }
    }
}
