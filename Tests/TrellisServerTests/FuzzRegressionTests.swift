import Foundation
import Testing
import TrellisCore
import TrellisProtocol
@testable import TrellisServer

/// Every input a fuzzer once failed on (Fuzz/Regressions/<target>/, kept by `tools/fuzz`) is
/// replayed here with the same check, so a fixed crash stays fixed.
@Suite struct FuzzRegressionTests {
    static let regressions = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/Regressions")

    static func inputs(_ target: String) throws -> [(name: String, bytes: [UInt8])] {
        let directory = regressions.appendingPathComponent(target)
        return try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0 != "README" }.sorted().map {
            ($0, [UInt8](try Data(contentsOf: directory.appendingPathComponent($0))))
        }
    }

    @Test func theDirectoriesExist() throws {
        #expect(FileManager.default.fileExists(atPath: Self.regressions.appendingPathComponent("json/README").path))
        #expect(FileManager.default.fileExists(atPath: Self.regressions.appendingPathComponent("request/README").path))
        #expect(FileManager.default.fileExists(atPath: Self.regressions.appendingPathComponent("dynamics/README").path))
    }

    /// fuzz-json's check: what parses writes back to text that parses to the same value.
    @Test func jsonInputsRoundTrip() throws {
        for (name, bytes) in try Self.inputs("json") {
            guard let value = try? JSONParser.parse(bytes) else { continue }
            #expect((try? JSONParser.parse(Array(JSONWriter.string(value).utf8))) == value, "\(name)")
        }
    }

    /// fuzz-request's check: every line is read as the socket reads it, runs, and the server still answers.
    @Test func requestInputsAreAnswered() throws {
        for (name, bytes) in try Self.inputs("request") {
            let server = try InProcessServer()
            _ = server.call("session.create", .object(["name": .string("fuzz"), "clock": .string("manual")]))
            for line in bytes.split(separator: 10).prefix(64) where line.firstRange(of: Array("shutdown".utf8)) == nil {
                _ = server.handle(message: Array(line))
            }
            #expect(server.call("hello").isResult, "\(name)")
        }
    }

    /// fuzz-dynamics's check, the same code (`DynamicsScenario`): no internal error, every dynamic
    /// element's numbers finite, no request of 2 s or more.
    @Test func dynamicsInputsKeepTheInvariant() throws {
        let server = try InProcessServer()
        for (name, bytes) in try Self.inputs("dynamics") {
            let problem = DynamicsScenario(bytes: bytes).problem(on: server)
            #expect(problem == nil, "\(name): \(problem ?? "")")
            if problem != nil { _ = server.call("session.destroy", .object(["session": .string("dyn")])) }
        }
    }
}

extension InProcessReply {
    var isResult: Bool { if case .result = self { return true } else { return false } }
}
