import CLibUV

/// tee(2), splice(2) and pipe sizes (Linux), which Glibc declares only under _GNU_SOURCE: frames reach many sockets as references to one pipe's pages.
public enum Splice {
    public static let move = TRELLIS_SPLICE_F_MOVE
    public static let nonblocking = TRELLIS_SPLICE_F_NONBLOCK
    /// fcntl commands for a pipe's capacity.
    public static let setPipeSize = TRELLIS_F_SETPIPE_SZ
    public static let getPipeSize = TRELLIS_F_GETPIPE_SZ

    /// Duplicates up to `count` bytes of one pipe into another without consuming them.
    public static func tee(from input: Int32, to output: Int32, count: Int, flags: UInt32) -> Int {
        trellis_tee(input, output, count, flags)
    }

    /// Moves up to `count` bytes from `input` to `output`, one of them a pipe.
    public static func splice(from input: Int32, to output: Int32, count: Int, flags: UInt32) -> Int {
        trellis_splice(input, nil, output, nil, count, flags)
    }
}
