import Testing
import TrellisTransport
#if canImport(Glibc)
import Glibc
#endif

/// What can be checked of TTY without a terminal (the tmux tests of `trellis attach` run it
/// on a real one): a descriptor that is no terminal nor stream is refused, with libuv's reason.
@Suite struct TTYTests {
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
