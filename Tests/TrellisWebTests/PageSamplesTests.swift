import Foundation
import Testing
import TrellisProtocol

/// The page's sample picker (Page/samples.js, written by tools/page-samples) holds exactly the
/// compositional examples: each sample's layout is its example's `examples/layouts/*.json` (or
/// the list preset it names) and its data the items per section the example reloads. Derived
/// here again from the examples, so an example edited without running tools/page-samples, or
/// a sample added to one side only, fails here.
@Suite struct PageSamplesTests {
    /// The package's examples/ (this file is Tests/TrellisWebTests/PageSamplesTests.swift).
    static let examples: URL = {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        return root.appendingPathComponent("examples", isDirectory: true)
    }()

    /// One example's sample as the page should hold it.
    struct Expected {
        var layout: JSONValue
        var items: [Int]
    }

    /// What `examples/NAME.trellis` sets up: its first `new` line's layout and its first
    /// `reload` line's items per section.
    static func expected(script: String) throws -> Expected {
        let text = try String(contentsOf: examples.appendingPathComponent("\(script).trellis"), encoding: .utf8)
        var layout: JSONValue?
        var items: [Int]?
        for line in text.split(separator: "\n") {
            let words = line.prefix { $0 != "#" }.split(separator: " ").map(String.init)
            let option = { (flag: String) in words.firstIndex(of: flag).map { words[$0 + 1] } }
            if words.first == "new", layout == nil {
                if option("--layout") == "list" {
                    layout = .object(["type": .string("compositional"), "list": .object(["appearance": .string(option("--appearance") ?? "")])])
                } else if let file = option("--file") {
                    layout = try JSONParser.parse(String(contentsOf: examples.appendingPathComponent(file), encoding: .utf8))
                }
            } else if words.first == "reload", items == nil, let counts = option("--items") {
                items = counts.split(separator: ",").compactMap { Int($0) }
            }
        }
        guard let layout, let items else { throw WebTestFailure("\(script).trellis sets up no layout or no items") }
        return Expected(layout: layout, items: items)
    }

    /// The samples as the page declares them (samples.js is `window.trellisSamples = [ … ];`).
    static func pageSamples() throws -> [JSONValue] {
        let text = try PageFiles.text("samples.js")
        guard let start = text.range(of: "window.trellisSamples = "), let end = text.range(of: ";", options: .backwards) else {
            throw WebTestFailure("samples.js does not set window.trellisSamples")
        }
        return try JSONParser.parse(String(text[start.upperBound..<end.lowerBound])).arrayValue ?? []
    }

    static func scripts() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: examples.path)
            .filter { $0.hasPrefix("compositional-") && $0.hasSuffix(".trellis") }
            .map { String($0.dropLast(".trellis".count)) }.sorted()
    }

    @Test func thePageHoldsEveryCompositionalExampleAsItIs() throws {
        let samples = try Self.pageSamples()
        let scripts = try Self.scripts()
        #expect(scripts.count == 14)
        #expect(samples.compactMap { $0["script"]?.stringValue }.sorted() == scripts, "run tools/page-samples")
        for sample in samples {
            let script = sample["script"]?.stringValue ?? ""
            let name = sample["name"]?.stringValue ?? ""
            #expect(!name.isEmpty, "\(script) has no name")
            let expected = try Self.expected(script: script)
            #expect(sample["layout"] == expected.layout, "\(script): the page's layout is not examples/' (run tools/page-samples)")
            #expect(sample["items"]?.arrayValue?.compactMap(\.numberValue) == expected.items.map(Double.init),
                    "\(script): the page's items per section are not the example's")
        }
        #expect(Set(samples.compactMap { $0["name"]?.stringValue }).count == samples.count, "two samples with one name")
    }
}
