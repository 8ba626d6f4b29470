#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TrellisProtocol
import TrellisServer

/// `recording.seek.10min`'s session: ten minutes at 60 Hz (36,000 frames) of a recorded
/// 400-item session on an in-process server, driven as a person would: a drag and its fling
/// every 10 s, a batch every 5 s, an animated scroll every 7 s, an animated layout change every
/// minute, a body under gravity from the second minute on; every frame a clock.advance.
/// Built once, on first use (outside the measurement). The recording's file goes to a fresh
/// directory under /tmp (the history a seek reads is in memory).
final class RecordedSession: @unchecked Sendable {
    static let shared = RecordedSession()
    static let name = "recorded"

    let server: InProcessServer
    /// The recording's directory, removed at exit (read by a C callback, hence a static).
    nonisolated(unsafe) static var directoryToRemove: String?
    let frames: Int
    private var random: UInt64 = 0x9E37_79B9_7F4A_7C15

    init() {
        var template = Array("/tmp/trellis-seek-bench-XXXXXX".utf8CString)
        let directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        // Gone when the benchmark process ends: runs do not leave their recordings behind.
        Self.directoryToRemove = directory
        atexit {
            if let directory = RecordedSession.directoryToRemove { try? FileManager.default.removeItem(atPath: directory) }
        }
        server = try! InProcessServer(recordingDirectory: directory)
        frames = smoke ? 600 : 36_000
        let s: JSONValue = .string(Self.name)
        let items = JSONValue.array((0..<400).map { .object(["id": .string("i\($0)")]) })
        call("session.create", ["name": s, "clock": .string("manual"),
                                "sections": .array([.object(["id": .string("a"), "items": items])])])
        call("recording.start", ["session": s, "checkpoints": .string("marks")])
        for f in 0..<frames {
            switch f % 600 {
            case 100: call("gesture.pan", ["session": s, "phase": .string("began"), "translation": .array([.number(0), .number(0)])])
            case 101...130: call("gesture.pan", ["session": s, "phase": .string("changed"), "translation": .array([.number(0), .number(Double(-8 * (f % 600 - 100)))])])
            case 131: call("gesture.pan", ["session": s, "phase": .string("ended"), "translation": .array([.number(0), .number(-240)]), "velocity": .array([.number(0), .number(-1200)])])
            default: break
            }
            if f % 300 == 200 {
                call("batch", ["session": s, "ops": .array([
                    .object(["op": .string("insertItems"), "at": .array([.array([.number(0), .number(0)])]), "items": .array([.object(["id": .string("n\(f)")])])]),
                    .object(["op": .string("deleteItems"), "at": .array([.array([.number(0), .number(399)])])]),
                ])])
            }
            if f % 420 == 250 {
                call("scroll.to", ["session": s, "offset": .array([.number(0), .number(Double(f * 37 % 2000))]), "animated": .bool(true)])
            }
            if f % 3600 == 1800 {
                let side: Double = f % 7200 == 1800 ? 80 : 100
                call("layout.set", ["session": s, "layout": .object(["type": .string("flow"), "itemSize": .array([.number(side), .number(side / 2)])]),
                                    "animated": .bool(true), "duration": .number(0.4)])
            }
            if f == 7200 || (smoke && f == 300) {
                call("body.add", ["session": s, "body": .string("card"), "center": .array([.number(150), .number(100)]), "size": .array([.number(60), .number(40)])])
                call("dynamics.add", ["session": s, "behavior": .object(["type": .string("gravity"), "items": .array([.object(["body": .string("card")])])])])
                call("dynamics.add", ["session": s, "behavior": .object(["type": .string("collision"), "items": .array([.object(["body": .string("card")])]),
                                                                          "translatesReferenceBoundsIntoBoundary": .bool(true)])])
            }
            call("clock.advance", ["session": s, "ms": .number(1000.0 / 60)])
        }
    }

    /// Runs a request the setup needs; a failure stops the benchmark with its message.
    @discardableResult
    func call(_ method: String, _ params: [String: JSONValue]) -> JSONValue {
        switch server.call(method, .object(params)) {
        case .result(let result): return result
        case .error(_, let message, _): fatalError("recording.seek.10min setup: \(method) failed: \(message)")
        }
    }

    /// A frame of the recording, chosen at random (a fixed sequence: runs are comparable).
    func nextFrame() -> Int {
        random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((random >> 33) % UInt64(frames + 1))
    }

    /// The scene at `frame`, as session.seek answers it.
    func seek(_ frame: Int) -> JSONValue {
        call("session.seek", ["session": .string(Self.name), "atFrame": .number(Double(frame))])
    }
}
