import Foundation
import Testing
import TrellisTestSupport
import TrellisClient

/// The README's pictures of Apple's "Pinned Section Headers" and "Item Badges" are what their
/// commands draw (TRELLIS_UPDATE_PICTURES=1 writes them), checked first against the geometry
/// their examples work out by hand.
@Suite struct CompositionalPictureTests {
    /// Runs the README's commands for `session` on a fresh server; the SVG they draw.
    static func draw(_ session: String, bounds: String, layout: String, items: String, scroll: [String]) throws -> String {
        let server = try CLIServer()
        defer { server.stop() }
        let directory = CLIServer.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = ReadmeShellBlockTests.root + "/examples/layouts/\(layout).json"
        var commands = [["new", session, "--manual-clock", "--bounds", bounds, "--layout", "compositional", "--file", file],
                        ["reload", session, "--items", items]]
        if !scroll.isEmpty { commands.append(["scroll", session] + scroll) }
        commands.append(["snapshot", session, "--svg", directory + "/\(session).svg"])
        for command in commands {
            let r = runTrellis(["--socket", server.socketPath] + command)
            #expect(r.status == 0, "\(command): \(r.stderr)")
        }
        return try String(contentsOfFile: directory + "/\(session).svg", encoding: .utf8)
    }

    /// `drawn` is docs/images/NAME.svg (or becomes it with TRELLIS_UPDATE_PICTURES=1).
    static func expectPicture(_ drawn: String, named name: String) throws {
        let picture = ReadmeShellBlockTests.root + "/docs/images/\(name).svg"
        if ProcessInfo.processInfo.environment["TRELLIS_UPDATE_PICTURES"] == "1" {
            try drawn.write(toFile: picture, atomically: true, encoding: .utf8)
        }
        #expect((try? String(contentsOfFile: picture, encoding: .utf8)) == drawn,
                "docs/images/\(name).svg is not what the README's commands draw; TRELLIS_UPDATE_PICTURES=1 swift test --filter CompositionalPictureTests writes it")
    }

    @Test func theReadmesPinnedHeadersPictureIsWhatItsCommandsDraw() throws {
        let drawn = try Self.draw("pinned", bounds: "375x300", layout: "compositional-pinned-headers", items: "10,10", scroll: ["--to", "0,300"])
        // By hand (the example's geometry): rows 355 wide at x 10, row k of section 0 at
        // 44 + 49·k; the view shows 300…600, so the header (z-index 2, drawn last of section
        // 0's) is pinned at 300, over row 5 (289…333); the footer at 529, section 1's header at 573.
        #expect(drawn.contains("viewBox=\"0 300 375 300\""))
        let header = try #require(drawn.range(of: "<rect x=\"10\" y=\"300\" width=\"355\" height=\"44\""))
        let row5 = try #require(drawn.range(of: "<rect x=\"10\" y=\"289\" width=\"355\" height=\"44\""))
        #expect(row5.lowerBound < header.lowerBound, "the pinned header is drawn over the row under it")
        #expect(drawn.contains("<rect x=\"10\" y=\"485\" width=\"355\" height=\"44\""), "section 0's last row")
        #expect(drawn.contains("<rect x=\"10\" y=\"529\" width=\"355\" height=\"44\""), "section 0's footer")
        #expect(drawn.contains("<rect x=\"10\" y=\"573\" width=\"355\" height=\"44\""), "section 1's header at its place")
        try Self.expectPicture(drawn, named: "compositional-pinned-headers")
    }

    @Test func theReadmesBadgesPictureIsWhatItsCommandsDraw() throws {
        let drawn = try Self.draw("badges", bounds: "375x220", layout: "compositional-badges", items: "8", scroll: [])
        // By hand (the example's geometry): slots 83.75 square from 20, cells inset 5 →
        // 73.75; a badge 20 × 20 at (maxX − 14, minY − 6), above its cell.
        let cell = try #require(drawn.range(of: "<rect x=\"25\" y=\"25\" width=\"73.75\" height=\"73.75\""))
        let badge = try #require(drawn.range(of: "<rect x=\"84.75\" y=\"19\" width=\"20\" height=\"20\""))
        #expect(cell.lowerBound < badge.lowerBound, "a badge is drawn over its cell")
        #expect(drawn.contains("<rect x=\"108.75\" y=\"108.75\" width=\"73.75\" height=\"73.75\""), "cell 5")
        #expect(drawn.contains("<rect x=\"336\" y=\"102.75\" width=\"20\" height=\"20\""), "item 7's badge")
        #expect(drawn.components(separatedBy: "class=\"view\"").count - 1 == 16, "8 cells and 8 badges")
        try Self.expectPicture(drawn, named: "compositional-badges")
    }
}
