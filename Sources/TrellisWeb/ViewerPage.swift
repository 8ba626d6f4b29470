/// The one page trellis-web serves: plain HTML with its style and scripts inline, so the binary
/// is the whole viewer (no files to install beside it, no npm, nothing fetched from elsewhere).
///
/// The parts are real files in `Page/`, embedded in the binary by SwiftPM (`.embedInCode`), so
/// they are read, diffed and checked as what they are:
/// - `viewer.html`: the page, with a `{{name}}` marker where each part below goes inline;
/// - `viewer.css`: the style sheet, a status bar over a stage the size of the session's bounds;
/// - `viewer.js`: the WebSocket to `/ws`, the mirror of the session's scene kept as PROTOCOL.md's
///   "Frames and viewers" says a viewer keeps it (one element per view id, reused as the server
///   reuses views), the status bar, and the list of sessions when the page names none;
/// - `controls.js`: on top of the `window.trellisMirror` that viewer.js makes, the pointer, the
///   wheel and the toolbar, live only when the attach is read-write (`--control`); they send
///   the protocol's own requests, so the page drives the session exactly as a script would;
/// - `samples.js`: Apple's "Implementing Modern Collection Views" samples (name, layout, items
///   per section) for the toolbar's sample picker, written by `tools/page-samples` from the
///   examples (`examples/compositional-*.trellis` and their `examples/layouts/*.json`);
/// - `chart.js`: a live chart of the selected item's motion against the scene's time, from
///   the frames the page mirrors (`trellis plot`'s picture while the session runs);
/// - `timeline.js`: while the session is recorded, a timeline of the recording to scrub (play,
///   pause, a frame back or forward, a mark, back to live), drawing past moments from
///   `session.seek` on the stage, read-only, while the live session goes on.
enum ViewerPage {
    /// The page as served: put together once, on first use (`WebViewer` asks for it when it
    /// builds its routes, so a broken template stops trellis-web at start, not at a request).
    static let html: String = inline(
        into: text(PackageResources.viewer_html),
        parts: [
            "viewer.css": text(PackageResources.viewer_css),
            "viewer.js": text(PackageResources.viewer_js),
            "samples.js": text(PackageResources.samples_js),
            "controls.js": text(PackageResources.controls_js),
            "chart.js": text(PackageResources.chart_js),
            "timeline.js": text(PackageResources.timeline_js),
        ])

    /// `template` with each `{{name}}` replaced by `parts[name]`, each marker there exactly once
    /// (a marker lost or doubled in an edit of viewer.html would otherwise ship a page without a
    /// script, or with one twice).
    static func inline(into template: String, parts: [String: String]) -> String {
        for name in parts.keys {
            let found = template.ranges(of: "{{\(name)}}").count
            precondition(found == 1, "viewer.html has \(found) {{\(name)}} markers, not 1")
        }
        return parts.reduce(template) { page, part in page.replacing("{{\(part.key)}}", with: part.value) }
    }

    /// The resource's bytes as text (the files are UTF-8).
    private static func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}
