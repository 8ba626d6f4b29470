import Foundation
import Testing
@testable import TrellisWeb

/// The page trellis-web serves is its files (Sources/TrellisWeb/Page/) put together, byte for
/// byte: a file edited without a rebuild, a marker lost from viewer.html, or assembly that adds
/// or drops anything fails here rather than in a browser.
@Suite struct PageFilesTests {
    @Test func theServedPageIsTheFilesPutTogether() async throws {
        let expected = try PageFiles.page()
        let viewer = try await RunningWebViewer.start(socketPath: "/nonexistent/trellis.sock")
        let reply = await outcome { try await PlainHTTP.get(port: viewer.port, path: viewer.authorized("/")) }
        await viewer.stop()
        let page = try reply.get()
        #expect(page.status == 200)
        let head = page.head.lowercased()
        #expect(head.contains("content-type: text/html; charset=utf-8"))
        #expect(head.contains("cache-control: no-store"))
        let difference = PageFiles.difference(page.body, expected)
        #expect(difference == nil, "the page served differs from Sources/TrellisWeb/Page: \(difference ?? "")")
        #expect(!page.body.contains("{{"), "a marker was left in the page")
    }

    @Test func theCompiledInPageIsTheFilesPutTogether() throws {
        let difference = PageFiles.difference(ViewerPage.html, try PageFiles.page())
        #expect(difference == nil, "the page compiled in differs from Sources/TrellisWeb/Page: \(difference ?? "")")
    }

    @Test func eachPartGoesWhereItsMarkerIs() {
        let page = ViewerPage.inline(into: "<style>{{a.css}}</style><script>{{b.js}}</script>",
                                     parts: ["a.css": "p { }\n", "b.js": "'use strict';\n"])
        #expect(page == "<style>p { }\n</style><script>'use strict';\n</script>")
    }
}
