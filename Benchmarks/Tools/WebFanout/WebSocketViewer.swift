import HummingbirdWSClient
import Synchronization

/// One browser stand-in: a WebSocket on trellis-web that records when each frame's message
/// arrived. Its first message must be the attach reply (the keyframe). hummingbird-websocket's
/// client now and then loses bytes that arrive in the same read as its 101 response; then the
/// keyframe never comes (or a frame comes first), so after `keyframeTimeout` without one the
/// client connects again, as the page does, and counts it.
struct WebSocketViewer: Sendable {
    /// What one client saw over all its connections.
    struct Record: Sendable {
        var arrivals: [FrameArrival] = []
        var reconnects = 0
        var failure: String?
    }

    let url: String
    let keyframeTimeout: Double
    /// Counts clients holding a keyframe, so the measurement starts when all of them do.
    let attached: Attached

    /// Connects and records until the task is cancelled (cancelling closes the socket).
    func run() async -> Record {
        var record = Record()
        while !Task.isCancelled {
            let attempt = Attempt()
            let outcome = await connectOnce(attempt)
            record.arrivals += attempt.arrivals
            if attempt.hasKeyframe { attached.leave() }
            switch outcome {
            case .cancelled: return record
            case .noKeyframe:
                record.reconnects += 1
                // A bound, so a bridge that never answers fails the run instead of spinning.
                if record.reconnects >= 10 {
                    record.failure = "no keyframe after \(record.reconnects) connections"
                    attached.fail(record.failure!)
                    return record
                }
            case .failed(let reason):
                record.failure = reason
                attached.fail(reason)
                return record
            }
        }
        return record
    }

    private enum Outcome: Sendable { case cancelled, noKeyframe, failed(String) }

    /// One connection: the client's task, raced against the keyframe timeout.
    private func connectOnce(_ attempt: Attempt) async -> Outcome {
        let url = url, timeout = keyframeTimeout, attached = attached
        return await withTaskGroup(of: Outcome?.self) { group in
            group.addTask {
                do {
                    try await WebSocketClient.connect(
                        // Keyframes of 1,000 views are larger than the default 16 KB frame.
                        url: url, configuration: .init(maxFrameSize: 1 << 24, closeTimeout: .seconds(1)),
                        logger: .init(label: "web-fanout")
                    ) { inbound, _, _ in
                        try await Self.receive(inbound, into: attempt, attached: attached)
                    }
                } catch {
                    if Task.isCancelled { return .cancelled }
                    // Before the keyframe a broken start is retried; after it the run is broken.
                    if attempt.hasKeyframe { return .failed("WebSocket: \(error)") }
                    if attempt.refusal == nil { return .noKeyframe }
                }
                if let refusal = attempt.refusal { return .failed(refusal) }
                // The server closed the socket: a missing keyframe tries again; else it ended early.
                return attempt.hasKeyframe ? .failed("trellis-web closed the WebSocket") : .noKeyframe
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(timeout))
                if Task.isCancelled { return nil }
                return attempt.hasKeyframe ? nil : .noKeyframe
            }
            var result: Outcome = .cancelled
            for await outcome in group {
                guard let outcome else { continue }
                result = outcome
                group.cancelAll()
                break
            }
            // Cancellation of the whole run reaches the client through the group; report it as such.
            return Task.isCancelled ? .cancelled : result
        }
    }

    /// Reads messages until the socket ends, stamping each with the time its last frame arrived.
    private static func receive(_ inbound: WebSocketInboundStream, into attempt: Attempt, attached: Attached) async throws {
        var arrivals: [FrameArrival] = []
        arrivals.reserveCapacity(1024)
        defer { attempt.keep(arrivals) }
        // A message's first frame holds its head (trellis-web sends one frame per message below 1 MB).
        var first: WebSocketDataFrame?
        var length = 0
        var keyframed = false
        for try await frame in inbound {
            let time = monotonicSeconds()
            switch frame.opcode {
            case .continuation: length += frame.data.readableBytes
            default:
                first = frame
                length = frame.data.readableBytes
            }
            guard frame.fin, let message = first?.data else { continue }
            first = nil
            let seq = message.withUnsafeReadableBytes { raw in
                FrameSeq.parse(UnsafeRawBufferPointer(rebasing: raw.prefix(FrameSeq.headBytes)))
            }
            if keyframed {
                if let seq { arrivals.append(FrameArrival(seq: seq, time: time, bytes: length)) }
                continue
            }
            let isKeyframe = message.withUnsafeReadableBytes { raw in
                FrameSeq.isKeyframeReply(UnsafeRawBufferPointer(rebasing: raw.prefix(FrameSeq.headBytes)))
            }
            if isKeyframe {
                keyframed = true
                attempt.gotKeyframe()
                attached.arrive()
            } else if seq != nil {
                // A frame before any reply: the reply was lost with the 101; connect again.
                return
            } else {
                // An error reply or a bridge notice (unknown session, trellisd unreachable).
                attempt.refuse(message.getString(at: message.readerIndex, length: min(message.readableBytes, 500)) ?? "?")
                return
            }
        }
    }
}
