import Foundation

/// The page's files as they are in the source tree (Sources/TrellisWeb/Page/), read from disk
/// rather than from what was compiled in, so a test holds the served page to the files a
/// person edits and diffs.
enum PageFiles {
    /// The scripts in the order viewer.html has them, each a file of its own.
    static let scripts = ["viewer.js", "samples.js", "controls.js", "chart.js", "timeline.js"]

    /// Sources/TrellisWeb/Page in the package that holds this file
    /// (Tests/TrellisWebTests/Support/PageFiles.swift).
    static let directory: URL = {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { root.deleteLastPathComponent() }
        return root.appendingPathComponent("Sources/TrellisWeb/Page", isDirectory: true)
    }()

    /// The file `name`'s bytes as text.
    static func text(_ name: String) throws -> String {
        let data = try Data(contentsOf: directory.appendingPathComponent(name))
        return String(decoding: data, as: UTF8.self)
    }

    /// The page as it should be served: viewer.html with `{{viewer.css}}`, `{{viewer.js}}` and
    /// `{{controls.js}}` each replaced by that file. Put together here by splitting at the
    /// markers, not by trellis-web's own code, so a fault there cannot hide itself.
    static func page() throws -> String {
        var page = try text("viewer.html")
        for name in ["viewer.css"] + scripts {
            let pieces = page.components(separatedBy: "{{\(name)}}")
            guard pieces.count == 2 else { throw WebTestFailure("viewer.html has \(pieces.count - 1) {{\(name)}} markers, not 1") }
            page = pieces[0] + (try text(name)) + pieces[1]
        }
        return page
    }

    /// Where `found` and `expected` first differ, byte for byte (String's == holds canonically
    /// equivalent texts equal), with a little of each from there; nil when they are the same.
    static func difference(_ found: String, _ expected: String) -> String? {
        let a = Array(found.utf8), b = Array(expected.utf8)
        guard a != b else { return nil }
        let at = zip(a, b).prefix { $0 == $1 }.count
        let excerpt = { (bytes: [UInt8]) in String(decoding: bytes[at..<min(bytes.count, at + 60)], as: UTF8.self).debugDescription }
        return "at byte \(at) of \(a.count) (expected \(b.count)): \(excerpt(a)), expected \(excerpt(b))"
    }
}
