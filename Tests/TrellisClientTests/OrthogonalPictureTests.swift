import Foundation
import Testing
import TrellisTestSupport
import TrellisClient

/// The README's orthogonal-sections picture is what its commands draw: Apple's "Orthogonal
/// Sections" with the first band scrolled 160 across (TRELLIS_UPDATE_PICTURES=1 writes it).
@Suite struct OrthogonalPictureTests {
    @Test func theReadmesOrthogonalSectionsPictureIsWhatItsCommandsDraw() throws {
        let server = try CLIServer()
        defer { server.stop() }
        let directory = CLIServer.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let layout = ReadmeShellBlockTests.root + "/examples/layouts/compositional-orthogonal-sections.json"
        for command in [["new", "strips", "--manual-clock", "--bounds", "375x600", "--layout", "compositional", "--file", layout],
                        ["reload", "strips", "--items", "9,9"],
                        ["scroll", "strips", "--section", "0", "--to", "160"],
                        ["snapshot", "strips", "--svg", directory + "/strips.svg"]] {
            let r = runTrellis(["--socket", server.socketPath] + command)
            #expect(r.status == 0, "\(command): \(r.stderr)")
        }
        let drawn = try String(contentsOfFile: directory + "/strips.svg", encoding: .utf8)
        // By hand (the example's geometry): groups 318.75 wide, the large cell at (10, 10,
        // 203.125, 220) in its group. The first band 160 across: item 0 at 10 − 160 = −150,
        // item 3 (the second group) at 328.75 − 160 = 168.75; the second band at rest, 240 down.
        #expect(drawn.contains("data-orthogonal=\"0:160\""))
        #expect(drawn.contains("<rect x=\"-150\" y=\"10\" width=\"203.125\" height=\"220\""))
        #expect(drawn.contains("<rect x=\"168.75\" y=\"10\" width=\"203.125\" height=\"220\""))
        #expect(drawn.contains("<rect x=\"10\" y=\"250\" width=\"203.125\" height=\"220\""))
        let picture = ReadmeShellBlockTests.root + "/docs/images/compositional-orthogonal-sections.svg"
        if ProcessInfo.processInfo.environment["TRELLIS_UPDATE_PICTURES"] == "1" {
            try drawn.write(toFile: picture, atomically: true, encoding: .utf8)
        }
        #expect((try? String(contentsOfFile: picture, encoding: .utf8)) == drawn,
                "docs/images/compositional-orthogonal-sections.svg is not what the README's commands draw; TRELLIS_UPDATE_PICTURES=1 swift test --filter theReadmesOrthogonalSections writes it")
    }
}
