import Glibc
import TrellisTransport

/// Sends one frame to many connections with one copy: the bytes go into a pipe once, and each
/// connection whose output is idle gets the pipe's pages by reference (tee(2) into a scratch
/// pipe, splice(2) into its socket). What a socket does not take now, and every connection
/// with output already waiting, goes through `Connection.write` as usual, so each connection
/// still receives its bytes whole and in order. Copying a 45 KB frame into 64 sockets was
/// a third of a fan-out tick; handing over page references costs a fraction of that.
final class FrameFanout {
    private let source: (read: Int32, write: Int32)
    private let scratch: (read: Int32, write: Int32)
    private let devNull: Int32
    /// The largest frame that goes through the pipes (their capacity); larger ones are written.
    let capacity: Int
    /// Frames spliced, and connections that took the fallback (for tests and stats).
    private(set) var framesSpliced = 0
    private(set) var writesFallenBack = 0

    /// Nil when the pipes cannot be made (then callers write to each connection).
    init?(capacity wanted: Int = 1 << 20) {
        func makePipe() -> (read: Int32, write: Int32)? {
            var fds: [Int32] = [-1, -1]
            guard pipe(&fds) == 0 else { return nil }
            for fd in fds {
                _ = fcntl(fd, F_SETFL, O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)   // not inherited by the processes tests spawn
            }
            // Best effort: an unprivileged process may get less than it asks for.
            _ = fcntl(fds[0], Splice.setPipeSize, Int32(wanted))
            return (fds[0], fds[1])
        }
        guard let source = makePipe() else { return nil }
        guard let scratch = makePipe() else {
            Glibc.close(source.read); Glibc.close(source.write)
            return nil
        }
        let devNull = open("/dev/null", O_WRONLY | O_CLOEXEC)
        let capacity = min(fcntl(source.read, Splice.getPipeSize), fcntl(scratch.read, Splice.getPipeSize))
        guard devNull >= 0, capacity > 0 else {
            for fd in [source.read, source.write, scratch.read, scratch.write, devNull] where fd >= 0 { Glibc.close(fd) }
            return nil
        }
        self.source = source
        self.scratch = scratch
        self.devNull = devNull
        self.capacity = Int(capacity)
    }

    deinit {
        for fd in [source.read, source.write, scratch.read, scratch.write, devNull] { Glibc.close(fd) }
    }

    /// Sends `bytes` to every connection, in the order given. One connection is simply written
    /// to: the pipes only pay off when the bytes are shared.
    func send(_ bytes: UnsafeRawBufferPointer, to connections: [Connection]) {
        guard bytes.count > 0 else { return }
        guard connections.count > 1, bytes.count <= capacity, connections.contains(where: \.canWriteDirectly), fill(bytes) else {
            for connection in connections { connection.write(bytes) }
            return
        }
        framesSpliced += 1
        for connection in connections {
            guard connection.canWriteDirectly else {
                connection.write(bytes)
                continue
            }
            let teed = Splice.tee(from: source.read, to: scratch.write, count: bytes.count, flags: Splice.nonblocking)
            guard teed == bytes.count else {
                discard(scratch.read, max(0, teed))
                writesFallenBack += 1
                connection.write(bytes)
                continue
            }
            // EAGAIN (the socket is full) or an error: the write below takes the rest, and
            // reports an error as any write does.
            let spliced = max(0, Splice.splice(from: scratch.read, to: connection.fileDescriptor, count: bytes.count,
                                               flags: Splice.move | Splice.nonblocking))
            connection.countWrittenDirectly(spliced)
            if spliced < bytes.count {
                discard(scratch.read, bytes.count - spliced)
                writesFallenBack += 1
                connection.write(UnsafeRawBufferPointer(rebasing: bytes[spliced...]))
            }
        }
        discard(source.read, bytes.count)
    }

    /// Puts the whole frame into the (empty) source pipe; false, with the pipe empty, when it
    /// would not take all of it.
    private func fill(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(source.write, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                discard(source.read, offset)
                return false
            }
            offset += n
        }
        return true
    }

    /// Drops `count` bytes from the front of a pipe (spliced into /dev/null: no copy).
    private func discard(_ pipe: Int32, _ count: Int) {
        var left = count
        while left > 0 {
            let n = Splice.splice(from: pipe, to: devNull, count: left, flags: 0)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            left -= n
        }
        // Should splicing to /dev/null ever fail, read the rest out: the pipe must be empty
        // for the next frame.
        guard left > 0 else { return }
        var sink = [UInt8](repeating: 0, count: 4096)
        while left > 0 {
            let n = Glibc.read(pipe, &sink, min(left, sink.count))
            guard n > 0 else { break }
            left -= n
        }
    }
}
