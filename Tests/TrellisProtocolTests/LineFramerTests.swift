import Testing
@testable import TrellisProtocol

@Suite struct LineFramerTests {
    private func text(_ frames: [LineFramer.Frame]) -> [String] {
        frames.map {
            switch $0 {
            case .message(let bytes): return String(decoding: bytes, as: UTF8.self)
            case .oversized(let n): return "<oversized \(n)>"
            }
        }
    }

    @Test func splitsLinesAcrossChunks() {
        var framer = LineFramer(maximumMessageBytes: 100)
        #expect(text(framer.append(Array("{\"a\":1}\n{\"b\"".utf8))) == ["{\"a\":1}"])
        #expect(framer.pendingByteCount == 4)
        #expect(text(framer.append(Array(":2}\r\n\n".utf8))) == ["{\"b\":2}"])
        #expect(framer.pendingByteCount == 0)
    }

    @Test func dropsOversizedLineAndResynchronises() {
        var framer = LineFramer(maximumMessageBytes: 8)
        let frames = framer.append(Array("0123456789ABCDEF\nok\n".utf8))
        #expect(text(frames) == ["<oversized 16>", "ok"])
    }

    @Test func memoryStaysBoundedWhileDiscarding() {
        var framer = LineFramer(maximumMessageBytes: 8)
        for _ in 0..<1000 { _ = framer.append([UInt8](repeating: 65, count: 1000)) }
        #expect(framer.pendingByteCount == 0)
        #expect(text(framer.append(Array("\n".utf8))) == ["<oversized 1000000>"])
    }

    @Test func exactlyTheLimitIsAccepted() {
        var framer = LineFramer(maximumMessageBytes: 4)
        #expect(text(framer.append(Array("abcd\r\nabcde\n".utf8))) == ["abcd", "<oversized 5>"])
    }
}
