import Testing
import TrellisTransport
#if canImport(Glibc)
import Glibc
#endif

/// A listener and two FramedStreams on one real loop: a client connects to a temporary socket,
/// sends a line, and the accepted stream answers it.
@Suite struct ListenerTests {
    private func temporaryDirectory() -> String {
        var template = Array("/tmp/trellis-transport-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }

    @Test func acceptsAConnectionAndAStreamRoundTripsALine() throws {
        let directory = temporaryDirectory()
        defer { rmdir(directory) }
        let path = directory + "/t.sock"
        let loop = try EventLoop()
        let listener = try Listener(loop: loop, path: path, umask: 0o177, maximumMessageBytes: 1024)
        let client = FramedStream(loop: loop, maximumMessageBytes: 1024)
        let deadline = LoopTimer(loop: loop)
        var served: FramedStream?
        var peerUID: UInt32?
        var socketMode: UInt32?
        var connectStatus: Int32?
        var replies: [String] = []
        func finish() {
            client.close(reason: "done")
            served?.close(reason: "done")
            listener.close()
            deadline.close()
        }
        listener.onConnection = { result in
            guard case .success(let stream) = result else {
                Issue.record("accept failed: \(result)")
                return
            }
            served = stream
            peerUID = stream.peerUID
            var status = stat()
            if stat(path, &status) == 0 { socketMode = UInt32(status.st_mode) & 0o777 }
            stream.onMessage = { [unowned stream] bytes in
                let reply = Array("echo:".utf8) + Array(bytes) + [UInt8(ascii: "\n")]
                reply.withUnsafeBytes { stream.write($0) }
            }
            stream.startReading()
        }
        client.onMessage = { bytes in
            replies.append(String(decoding: bytes, as: UTF8.self))
            finish()
        }
        client.connect(to: path) { status in
            connectStatus = status
            guard status == 0 else { return finish() }
            client.startReading()
            Array("hello\n".utf8).withUnsafeBytes { client.write($0) }
        }
        deadline.onFire = {
            _ = Issue.record("no reply within 5 s")
            finish()
        }
        deadline.start(after: 5000)
        loop.run()
        #expect(connectStatus == 0)
        #expect(replies == ["echo:hello"])
        #expect(peerUID == getuid())
        #expect(socketMode == 0o600)
        // libuv removes the socket file as it closes a bound pipe.
        #expect(access(path, F_OK) != 0)
        loop.close()
    }

    @Test func bindingWhereNoDirectoryIsFailsWithItsReason() throws {
        let loop = try EventLoop()
        #expect {
            _ = try Listener(loop: loop, path: "/nonexistent-trellis-directory/t.sock", maximumMessageBytes: 16)
        } throws: { error in
            (error as? TransportError)?.operation == "uv_pipe_bind"
        }
        loop.close()
    }
}
