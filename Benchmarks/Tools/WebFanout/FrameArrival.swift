/// One frame as one viewer received it: its seq, when its last byte arrived (monotonic
/// seconds) and its size in bytes (the line without its newline, or the WebSocket message).
struct FrameArrival: Sendable {
    var seq: Int
    var time: Double
    var bytes: Int
}
