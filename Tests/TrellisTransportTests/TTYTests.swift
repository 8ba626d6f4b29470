import Testing
import TrellisTransport
#if canImport(Glibc)
import Glibc
#endif

/// TTY on a real terminal (a pseudo-terminal this test opens: its size, raw mode, keys read),
/// and on a descriptor that is no terminal nor stream, refused with libuv's reason. (The tmux
/// tests of `trellis attach` run it as users do.)
@Suite struct TTYTests {
    @Test func aPseudoTerminalGivesItsSizeAndRawKeys() throws {
        // posix_openpt and friends are not in Swift's Glibc module: their Linux ioctls instead
        // (TIOCSPTLCK and TIOCGPTN are function-like macros Swift cannot import).
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        try #require(master >= 0)
        defer { close(master) }
        var unlock: Int32 = 0, number: Int32 = -1
        try #require(ioctl(master, 0x4004_5431 /* TIOCSPTLCK */, &unlock) == 0)
        try #require(ioctl(master, 0x8004_5430 /* TIOCGPTN */, &number) == 0)
        let terminal = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        try #require(terminal >= 0)
        defer { close(terminal) }
        var size = winsize(ws_row: 30, ws_col: 100, ws_xpixel: 0, ws_ypixel: 0)
        try #require(ioctl(master, UInt(TIOCSWINSZ), &size) == 0)

        let loop = try EventLoop()
        let tty = try TTY(loop: loop, fileDescriptor: terminal, readable: true)
        #expect(tty.windowSize.map { [$0.columns, $0.rows] } == [100, 30])
        #expect(TTY.windowSize(ofDescriptor: terminal).map { [$0.columns, $0.rows] } == [100, 30])
        // Raw mode: the keys arrive as typed, without waiting for a newline (a terminal in its
        // usual mode would hold "q" and the arrow key until Return).
        #expect(tty.setRawMode() == 0)
        defer { TTY.resetMode() }
        var received: [UInt8] = []
        let keys: [UInt8] = Array("q\u{1b}[A".utf8)
        tty.onInput = { (bytes: [UInt8]) in
            received += bytes
            if received.count >= keys.count { loop.stop() }
        }
        tty.startReading()
        let deadline = LoopTimer(loop: loop)
        deadline.onFire = { loop.stop() }
        deadline.start(after: 5000)
        #expect(keys.withUnsafeBytes { write(master, $0.baseAddress, $0.count) } == keys.count)
        loop.run()
        #expect(received == keys)
        deadline.close()
        tty.close()
        loop.run()
        loop.close()
    }

    @Test func aDeviceThatIsNoTerminalIsRefused() throws {
        // Not a pipe: libuv takes a pipe as a stream, and closes it when the handle closes.
        let fd = open("/dev/null", O_RDWR | O_CLOEXEC)
        try #require(fd >= 0)
        defer { close(fd) }
        let loop = try EventLoop()
        #expect {
            _ = try TTY(loop: loop, fileDescriptor: fd, readable: true)
        } throws: { error in
            (error as? TransportError)?.operation == "uv_tty_init"
        }
        #expect(TTY.windowSize(ofDescriptor: fd) == nil)
        loop.close()
    }
}
