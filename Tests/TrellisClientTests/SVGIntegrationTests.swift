import Foundation
import Testing
import TrellisTestSupport
import TrellisClient
import TrellisCore
import TrellisProtocol

/// `trellis snapshot` and `trellis record` against a real `trellisd`: the pictures they write
/// hold the server's scene (`query.scene`), view for view.
@Suite struct SVGIntegrationTests {
    /// A manual-clock session of `count` items with labels (one needing escaping) and colours.
    func makeSession(_ server: CLIServer, name: String, layout: String, count: Int) throws -> RPCClient {
        let client = try RPCClient(path: server.socketPath, timeout: 10)
        let colors = ["red", "#36c", nil]
        let items: [JSONValue] = (0..<count).map { n in
            var data: [String: JSONValue] = ["label": .string(n == 0 ? "<first & \"only\">" : "item \(n)")]
            if let color = colors[n % colors.count] { data["color"] = .string(color) }
            return .object(["id": .string("i\(n)"), "data": .object(data)])
        }
        try client.call("session.create", [
            "name": .string(name), "clock": .string("manual"),
            "layout": .object(["type": .string(layout), "itemSize": .array([.number(100), .number(100)])]),
            "sections": .array([.object(["id": .string("s"), "items": .array(items)])]),
        ])
        return client
    }

    func scene(_ client: RPCClient, _ name: String) throws -> Scene {
        try WireScene.scene(try client.call("query.scene", ["session": .string(name)]))
    }

    /// Every drawn view of `scene` is in `svg`, in z-order, where the scene has it.
    func expectMatches(_ svg: ParsedSVG, _ scene: Scene, sourceLocation: SourceLocation = #_sourceLocation) {
        let drawn = SVGRenderer.drawingOrder(scene.views)
        #expect(svg.views.map(\.view) == drawn.map(\.view.rawValue), sourceLocation: sourceLocation)
        for (parsed, view) in zip(svg.views, drawn) {
            #expect(cornersMatch(parsed.corners, view.attributes.transformedCorners), "view \(parsed.view)", sourceLocation: sourceLocation)
            #expect(abs(parsed.opacity - view.attributes.alpha) < 1e-6, "view \(parsed.view)", sourceLocation: sourceLocation)
            #expect(parsed.label == view.displayLabel, sourceLocation: sourceLocation)
            #expect(parsed.attributes["data-id"] == view.itemID?.rawValue, sourceLocation: sourceLocation)
            #expect(parsed.fill == ViewColor.of(view).hex, sourceLocation: sourceLocation)
        }
        let offset = scene.contentOffset, bounds = scene.boundsSize
        #expect(svg.root["viewBox"] == [offset.x, offset.y, bounds.width, bounds.height].map(SVGRenderer.number).joined(separator: " "),
                sourceLocation: sourceLocation)
    }

    @Test func aCylinderCarouselIsDrawnAsProjectedPolygonsBackToFront() throws {
        let server = try CLIServer()
        defer { server.stop() }
        let client = try makeSession(server, name: "wheel", layout: "carousel", count: 8)
        defer { client.close() }
        try client.call("layout.set", ["session": .string("wheel"),
                                       "layout": .object(["type": .string("carousel"), "style": .string("cylinder"),
                                                          "itemSize": .array([.number(100), .number(100)])])])
        let r = server.trellis("snapshot", "wheel", "--svg", "-")
        #expect(r.status == 0, "\(r.stderr)")
        let svg = try ParsedSVG(r.stdout)
        let now = try scene(client, "wheel")
        expectMatches(svg, now)
        // The ring's 8 items turn about y under perspective (m34 = −1/500): each is a projected
        // polygon but the two parallel to the screen (the current one, 0, facing the viewer, and
        // the one opposite, facing away); the current one is nearest the eye, drawn last, on top.
        #expect(svg.views.count == 8)
        #expect(svg.views.filter { $0.attributes["data-projected"] == "true" }.count == 6)
        #expect(svg.views.last?.attributes["data-id"] == "i0")
    }

    @Test func snapshotAtATimeMatchesTheSceneMidAnimation() throws {
        let server = try CLIServer()
        defer { server.stop() }
        let client = try makeSession(server, name: "pic", layout: "circle", count: 6)
        defer { client.close() }
        // Circle layout: deleted items shrink (scale 0.1) and fade into the centre over 0.3 s.
        try client.call("batch", ["session": .string("pic"), "ops": .array([
            .object(["op": .string("deleteItems"), "at": .array([.array([.number(0), .number(1)])])]),
        ])])
        try client.call("clock.advance", ["session": .string("pic"), "ms": .number(100)])
        let path = server.directory + "/pic.svg"
        var r = server.trellis("snapshot", "pic", "--svg", path, "--at-time", "150")
        #expect(r.status == 0, "\(r.stderr)")
        let now = try scene(client, "pic")
        #expect(now.time == 0.15)
        #expect(r.stdout == "\(path): \(SVGRenderer.drawingOrder(now.views).count) views at 150ms\n")
        let svg = try ParsedSVG(contentsOf: path)
        expectMatches(svg, now)
        // The picture caught the deleted item on its way out: transformed and half faded.
        let leaving = try #require(svg.views.first { $0.attributes["data-id"] == "i1" })
        #expect(leaving.attributes["transform"]?.hasPrefix("matrix(") == true)
        #expect(leaving.opacity > 0 && leaving.opacity < 1)
        #expect(svg.views.first { $0.attributes["data-id"] == "i0" }?.label == "<first & \"only\">")

        // The clock never goes back.
        r = server.trellis("snapshot", "pic", "--svg", path, "--at-time", "100ms")
        #expect(r.status == 65)
        #expect(r.stderr.contains("--at-time 100ms is in the past: session 'pic' is at 150ms"))
        #expect(try scene(client, "pic").time == 0.15)
        // Without --at-time: the scene as it is, to standard output.
        r = server.trellis("snapshot", "pic", "--svg", "-")
        #expect(r.status == 0)
        expectMatches(try ParsedSVG(r.stdout), now)
    }

    @Test func snapshotAtATimeRefusesALiveClock() throws {
        let server = try CLIServer()
        defer { server.stop() }
        #expect(server.trellis("new", "live").status == 0)
        let r = server.trellis("snapshot", "live", "--svg", server.directory + "/x.svg", "--at-time", "5")
        #expect(r.status == 65)
        #expect(r.stderr.contains("needs a manual-clock session"))
        #expect(!FileManager.default.fileExists(atPath: server.directory + "/x.svg"))
    }

    @Test func recordWritesTheKeyframeThenOneFilePerFrame() throws {
        let server = try CLIServer()
        defer { server.stop() }
        let client = try makeSession(server, name: "rec", layout: "flow", count: 4)
        defer { client.close() }
        let before = try scene(client, "rec")
        let directory = server.directory + "/frames"
        let recorder = try RecorderProcess(["--socket", server.socketPath, "record", "rec", "--svg-dir", directory,
                                            "--frames", "3", "--frame-timeout", "20"])
        defer { recorder.stop() }
        try waitForViewers(client, "rec", count: 1)
        // Frame 1 (the insert lands at alpha 0), then frame 2 part way through its fade-in.
        try client.call("batch", ["session": .string("rec"), "ops": .array([
            .object(["op": .string("insertItems"), "at": .array([.array([.number(0), .number(0)])]),
                     "items": .array([.object(["id": .string("new"), "data": .object(["color": .string("navy")])])])]),
        ])])
        try client.call("clock.advance", ["session": .string("rec"), "ms": .number(100)])
        let result = recorder.wait(seconds: 20)
        #expect(result.status == 0, "\(result.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(files.count == 3)
        #expect(files.first == "frame-0001-seq0.svg")
        #expect(files.map { $0.prefix(11) } == ["frame-0001-", "frame-0002-", "frame-0003-"])
        #expect(result.stdout.split(separator: "\n").count == 3)
        expectMatches(try ParsedSVG(contentsOf: directory + "/" + files[0]), before)
        let last = try ParsedSVG(contentsOf: directory + "/" + files[2])
        let now = try scene(client, "rec")
        expectMatches(last, now)
        #expect(last.root["data-time"] == "100")
        let inserted = try #require(last.views.first { $0.attributes["data-id"] == "new" })
        #expect(inserted.opacity > 0 && inserted.opacity < 1 && inserted.fill == "#000080")
    }

    @Test func recordStopsWhenTheSessionCloses() throws {
        let server = try CLIServer()
        defer { server.stop() }
        let client = try makeSession(server, name: "gone", layout: "flow", count: 2)
        defer { client.close() }
        let directory = server.directory + "/frames"
        let recorder = try RecorderProcess(["--socket", server.socketPath, "record", "gone", "--svg-dir", directory,
                                            "--frames", "5", "--frame-timeout", "20"])
        defer { recorder.stop() }
        try waitForViewers(client, "gone", count: 1)
        try client.call("session.destroy", ["session": .string("gone")])
        let result = recorder.wait(seconds: 20)
        #expect(result.status == 69)
        #expect(result.stderr == "trellis: session 'gone' closed (destroyed) after 1 of 5 files\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["frame-0001-seq0.svg"])
    }

    @Test func recordGivesUpWhenNoFrameComes() throws {
        let server = try CLIServer()
        defer { server.stop() }
        let client = try makeSession(server, name: "still", layout: "flow", count: 1)
        defer { client.close() }
        let r = server.trellis("record", "still", "--svg-dir", server.directory + "/f", "--frames", "2", "--frame-timeout", "0.2")
        #expect(r.status == 69)
        #expect(r.stderr.hasPrefix("trellis: no frame from 'still' within 0.2 s after 1 of 2 files"))
        #expect(server.trellis("record", "still", "--svg-dir", server.directory + "/f", "--frames", "0").status == 64)
    }

    /// Polls session.info until `count` viewers are attached (the recorder is listening).
    func waitForViewers(_ client: RPCClient, _ name: String, count: Int) throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if try client.call("session.info", ["session": .string(name)])["viewers"]?.numberValue == Double(count) { return }
            usleep(10_000)
        }
        Issue.record("no \(count) viewer(s) attached to \(name) within 10 s")
    }
}

/// A `trellis` run in the background, while the test drives the session.
final class RecorderProcess {
    let process = Process()
    let out = Pipe(), err = Pipe()

    init(_ arguments: [String]) throws {
        process.executableURL = builtExecutable("trellis")
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["TRELLIS_SOCKET"] = nil
        process.environment = env
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// Waits up to `seconds` for it to exit (killing it after that) and returns what it said.
    func wait(seconds: Double) -> CLIResult {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            stop()
            return CLIResult(status: -1, stdout: "", stderr: "still running after \(seconds) s")
        }
        process.waitUntilExit()
        return CLIResult(status: process.terminationStatus,
                         stdout: String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
                         stderr: String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }
}
