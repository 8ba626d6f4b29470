import Foundation
import Testing
import TrellisTestSupport
import TrellisClient

/// The README's debug picture is what its commands draw: seed 001's sticky edges with the
/// debug layer on (TRELLIS_UPDATE_PICTURES=1 writes it).
@Suite struct DebugPictureTests {
    @Test func theReadmesStickyEdgesPictureIsWhatItsCommandsDraw() throws {
        let server = try CLIServer()
        defer { server.stop() }
        let directory = CLIServer.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for command in [["new", "sticky", "--manual-clock", "--bounds", "375x667"],
                        ["body", "add", "sticky", "panel", "--at", "187.5,300", "--size", "300x100", "--data", ##"{"color": "#3478f6", "label": "panel"}"##],
                        ["dynamics", "add", "sticky", "field", "body:panel", "--kind", "spring", "--position", "187.5,50", "--region", "rect:375,567", "--strength", "0.03"],
                        ["dynamics", "add", "sticky", "field", "body:panel", "--kind", "spring", "--position", "187.5,617", "--region", "rect:375,567", "--strength", "0.03"],
                        ["dynamics", "add", "sticky", "collision", "body:panel", "--bounds-boundary"],
                        ["dynamics", "add", "sticky", "item", "body:panel", "--density", "0.01", "--resistance", "20", "--no-rotation", "--velocity", "0,1500"],
                        ["snapshot", "sticky", "--debug", "--svg", directory + "/sticky.svg", "--at-time", "100"]] {
            let r = runTrellis(["--socket", server.socketPath] + command)
            #expect(r.status == 0, "\(command): \(r.stderr)")
        }
        let drawn = try String(contentsOfFile: directory + "/sticky.svg", encoding: .utf8)
        // What the picture must show: the fields with their arrows, the panel's shape, centre
        // and velocity, and the bounds.
        for kind in ["debug-field\"", "debug-fieldArrow", "debug-collision", "debug-centerOfMass", "debug-velocity", "debug-bounds"] {
            #expect(drawn.contains(kind), "no \(kind) in the picture")
        }
        let picture = ReadmeShellBlockTests.root + "/docs/images/debug-sticky-edges.svg"
        if ProcessInfo.processInfo.environment["TRELLIS_UPDATE_PICTURES"] == "1" {
            try drawn.write(toFile: picture, atomically: true, encoding: .utf8)
        }
        #expect(try String(contentsOfFile: picture, encoding: .utf8) == drawn,
                "docs/images/debug-sticky-edges.svg is not what the README's commands draw; TRELLIS_UPDATE_PICTURES=1 swift test --filter theReadmesStickyEdges writes it")
    }
}
