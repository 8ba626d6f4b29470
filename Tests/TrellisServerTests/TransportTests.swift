import Foundation
import Testing
import TrellisTransport
@testable import TrellisServer

/// The transport against real Unix sockets: the loop runs on the test's thread, the client is
/// a plain POSIX socket on another thread.
@Suite(.serialized) final class TransportTests {
    /// Scratch directories of this test (a new suite instance per test), removed after it.
    private var scratch: [ScratchDirectory] = []

    /// A path for a test's socket directory, not yet made: the tests make it, or let the
    /// listener make it, as they need.
    func temporaryDirectory() -> String {
        let directory = ScratchDirectory(prefix: "trellis-test")
        rmdir(directory.path)
        scratch.append(directory)
        return directory.path
    }

    /// Connects, sends `send`, reads until `expectBytes` arrived or the peer closed.
    final class Client: @unchecked Sendable {
        let path: String
        let send: [UInt8]
        let expectBytes: Int
        let closeEarly: Bool
        /// When set, the client sends, then reads only after `readGate` is signalled: the
        /// server's writes meet a socket that takes no more, whatever the scheduler does.
        let readGate: DispatchSemaphore?
        var received: [UInt8] = []
        var done = false
        let lock = NSLock()

        init(path: String, send: String, expectBytes: Int, closeEarly: Bool = false, readGate: DispatchSemaphore? = nil) {
            self.path = path; self.send = Array(send.utf8); self.expectBytes = expectBytes; self.closeEarly = closeEarly
            self.readGate = readGate
        }

        func start() {
            Thread.detachNewThread { [self] in
                let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
                var address = SocketDirectory.unixAddress(path)!
                let connected = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
                }
                if connected == 0 {
                    _ = send.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    if !closeEarly {
                        readGate?.wait()
                        var buffer = [UInt8](repeating: 0, count: 65536)
                        while received.count < expectBytes {
                            let n = recv(fd, &buffer, buffer.count, 0)
                            if n <= 0 { break }
                            lock.lock(); received += buffer[0..<n]; lock.unlock()
                        }
                    }
                }
                close(fd)
                lock.lock(); done = true; lock.unlock()
            }
        }

        var isDone: Bool { lock.lock(); defer { lock.unlock() }; return done }
    }

    /// Runs the loop until `condition` or 5 s.
    func run(_ loop: EventLoop, until condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(5)
        while !condition() && Date() < deadline {
            loop.runOnce()
            usleep(1000)
        }
    }

    @Test func echoesMessagesAndDropsOversizedLines() throws {
        let dir = temporaryDirectory(), path = dir + "/t.sock"
        let loop = try EventLoop()
        let listener = try UnixSocketListener(loop: loop, path: path, maximumMessageBytes: 16)
        var oversized: [Int] = []
        var closed: [String] = []
        listener.onConnection = { connection in
            connection.onMessage = { c, message in c.write(Array("echo:".utf8) + Array(message) + [10]) }
            connection.onOversized = { _, count in oversized.append(count) }
            connection.onClose = { c in closed.append(c.closeReason ?? "") }
        }
        let client = Client(path: path, send: "hello\n" + String(repeating: "x", count: 40) + "\nworld\n", expectBytes: 22)
        client.start()
        run(loop) { client.isDone && !closed.isEmpty }
        #expect(String(decoding: client.received, as: UTF8.self) == "echo:hello\necho:world\n")
        #expect(oversized == [40])
        #expect(closed == ["peer closed"])
        listener.close()
        loop.close()
        #expect(access(path, F_OK) != 0)   // closing the listener removed the socket file
    }

    @Test func socketIsPrivate() throws {
        let dir = temporaryDirectory(), path = dir + "/sub/t.sock"
        let loop = try EventLoop()
        let listener = try UnixSocketListener(loop: loop, path: path, maximumMessageBytes: 1024)
        var info = stat()
        #expect(stat(dir + "/sub", &info) == 0 && info.st_mode & 0o777 == 0o700)
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        listener.close()
        loop.close()
    }

    @Test func secondServerOnALiveSocketIsRefused() throws {
        let dir = temporaryDirectory(), path = dir + "/t.sock"
        let loop = try EventLoop()
        let first = try UnixSocketListener(loop: loop, path: path, maximumMessageBytes: 1024)
        #expect(SocketDirectory.occupant(of: path) == .liveServer)
        #expect {
            _ = try UnixSocketListener(loop: loop, path: path, maximumMessageBytes: 1024)
        } throws: { error in
            "\(error)".contains("already running on \(path)")
        }
        first.close()
        loop.close()
    }

    @Test func staleSocketIsReplaced() throws {
        let dir = temporaryDirectory(), path = dir + "/t.sock"
        mkdir(dir, 0o700)
        // A socket file whose server died: bound, never listened, closed without unlinking.
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = SocketDirectory.unixAddress(path)!
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        close(fd)
        #expect(SocketDirectory.occupant(of: path) == .staleSocket)
        let loop = try EventLoop()
        let listener = try UnixSocketListener(loop: loop, path: path, maximumMessageBytes: 1024)
        #expect(SocketDirectory.occupant(of: path) == .liveServer)
        listener.close()
        loop.close()
    }

    @Test func unsafeDirectoryIsRefusedWithAFix() throws {
        let dir = temporaryDirectory()
        mkdir(dir, 0o755)
        chmod(dir, 0o755)
        let loop = try EventLoop()
        #expect {
            _ = try UnixSocketListener(loop: loop, path: dir + "/t.sock", maximumMessageBytes: 1024)
        } throws: { error in
            "\(error)".contains("it must be 700") && "\(error)".contains("chmod 700 \(dir)")
        }
        #expect { _ = try UnixSocketListener(loop: loop, path: "/tmp/" + String(repeating: "d", count: 120) + "/t.sock", maximumMessageBytes: 1)
        } throws: { "\($0)".contains("at most 107") }
        loop.close()
    }

    @Test func peerVanishingMidWriteDoesNotKillTheServer() throws {
        let dir = temporaryDirectory(), path = dir + "/t.sock"
        let loop = try EventLoop()
        let listener = try UnixSocketListener(loop: loop, path: path, maximumMessageBytes: 1024)
        var closeReason: String?
        var queuedAtPeak = 0
        listener.onConnection = { connection in
            connection.onMessage = { c, _ in
                // 8 MB at once: far more than the socket buffer, so most of it is queued.
                let chunk = [UInt8](repeating: 65, count: 1 << 20)
                for _ in 0..<8 { c.write(chunk) }
                queuedAtPeak = c.queuedBytes
            }
            connection.onClose = { c in closeReason = c.closeReason }
        }
        let client = Client(path: path, send: "go\n", expectBytes: 100_000)   // reads a little, then hangs up
        client.start()
        run(loop) { closeReason != nil }
        #expect(queuedAtPeak > 1 << 20)
        #expect(closeReason != nil)
        listener.close()
        loop.close()
    }

    /// Frames shared by splice arrive whole and in order, also when a socket takes only part of
    /// one (the rest is queued) and when plain writes come between them.
    @Test func splicedFramesArriveWholeAndInOrder() throws {
        let dir = temporaryDirectory(), path = dir + "/t.sock"
        let loop = try EventLoop()
        let listener = try UnixSocketListener(loop: loop, path: path, maximumMessageBytes: 1024)
        let fanout = try #require(FrameFanout())
        var connections: [Connection] = []
        listener.onConnection = { connection in
            connection.onMessage = { c, _ in connections.append(c) }
        }
        // Ten frames of 60 KB (600 KB: more than a socket buffer holds), each a different byte,
        // then a plain write.
        let frames = (0..<10).map { [UInt8](repeating: UInt8(ascii: "a") + UInt8($0), count: 60_000) }
        let tail = Array("end\n".utf8)
        let expected = frames.flatMap { $0 } + tail
        // The clients read only once everything is sent, so the sockets surely fill.
        let gate = DispatchSemaphore(value: 0)
        let clients = (0..<3).map { _ in Client(path: path, send: "go\n", expectBytes: expected.count, readGate: gate) }
        for client in clients { client.start() }
        run(loop) { connections.count == 3 }
        try #require(connections.count == 3)
        for frame in frames { frame.withUnsafeBytes { fanout.send($0, to: connections) } }
        for c in connections { c.write(tail) }
        #expect(fanout.framesSpliced >= 1)
        #expect(fanout.writesFallenBack >= 1)   // the sockets filled: some frames went part by part
        for _ in clients { gate.signal() }
        run(loop) { clients.allSatisfy(\.isDone) }
        for client in clients {
            client.lock.lock()
            let received = client.received
            client.lock.unlock()
            #expect(received.count == expected.count)
            #expect(received == expected)
        }
        listener.close()
        loop.close()
    }
}
