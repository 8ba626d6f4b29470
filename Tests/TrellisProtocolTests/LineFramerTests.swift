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

    /// A megabyte line (a chunk of a reload) arrives in reads of 64 KB: its buffer is given
    /// back once the line is handed over, while a small line's is kept for the next.
    @Test func aBigLinesBufferIsGivenBack() {
        var framer = LineFramer(maximumMessageBytes: 1 << 20)
        let piece = [UInt8](repeating: 65, count: 64 << 10)
        for _ in 0..<15 { #expect(framer.append(piece).isEmpty) }
        #expect(framer.bufferCapacity >= 15 * (64 << 10))
        #expect(framer.append(Array("\n".utf8)) == [.message([UInt8](repeating: 65, count: 15 * (64 << 10)))])
        #expect(framer.bufferCapacity <= LineFramer.retainedCapacity)
        _ = framer.append(Array("{\"small\"".utf8))
        _ = framer.append(Array(":1}\n".utf8))
        #expect(framer.bufferCapacity > 0)
    }

    @Test func exactlyTheLimitIsAccepted() {
        var framer = LineFramer(maximumMessageBytes: 4)
        #expect(text(framer.append(Array("abcd\r\nabcde\n".utf8))) == ["abcd", "<oversized 5>"])
    }

    /// Messages of many lengths (long ones too, past a search's fast path), with "\n" and
    /// "\r\n" ends and empty lines, fed in chunks of every size from one byte to all at once:
    /// the same messages come out, whatever the cut.
    @Test func everyCutGivesTheSameMessages() {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var stream: [UInt8] = []
        var expected: [String] = []
        for n in 0..<60 {
            let length = [0, 1, 15, 16, 17, 63, 64, 65, 300, 5000][next(10)]
            let message = String((0..<length).map { i in Character(UnicodeScalar(UInt8(97 + (i + n) % 26))) })
            stream += Array(message.utf8) + (next(2) == 0 ? [10] : [13, 10])
            if !message.isEmpty { expected.append(message) }
        }
        for chunk in [1, 2, 3, 7, 16, 64, 1000, 4096, stream.count] {
            var framer = LineFramer(maximumMessageBytes: 10_000)
            var got: [String] = []
            var start = 0
            while start < stream.count {
                let end = min(stream.count, start + chunk)
                got += text(framer.append(stream[start..<end]))
                start = end
            }
            #expect(got == expected, "chunks of \(chunk)")
            #expect(framer.pendingByteCount == 0)
        }
    }
}
