/// The bridge's added latency: every frame a WebSocket client received in the measured window,
/// less the time the reference viewer (attached straight to trellisd) received the same seq.
/// Frames a client never got are not latency: slow viewers skip frames by design, so those
/// are counted apart.
struct AddedLatency {
    /// Seconds, sorted; one per (client, frame) pair received by both sides.
    private(set) var samples: [Double] = []
    /// Frames the reference viewer received in the window.
    private(set) var frames = 0
    /// Bytes of those frames, on average (a line without its newline).
    private(set) var frameBytes = 0
    /// Window frames a client did not get although it got a later one (skipped, then caught up).
    private(set) var skipped = 0
    /// Window frames a client had not got by the end, with nothing later either.
    private(set) var undelivered = 0
    /// Frames a client got that the reference viewer did not (the reference was skipped).
    private(set) var unmatched = 0
    /// Seqs missing between the reference viewer's first and last window frame.
    private(set) var referenceSkipped = 0

    init(reference: [FrameArrival], clients: [[FrameArrival]], window: ClosedRange<Double>) {
        let inWindow = reference.filter { window.contains($0.time) }
        frames = inWindow.count
        guard let first = inWindow.first?.seq, let last = inWindow.last?.seq else { return }
        frameBytes = inWindow.reduce(0) { $0 + $1.bytes } / inWindow.count
        referenceSkipped = last - first + 1 - inWindow.count
        var direct: [Int: Double] = [:]
        for arrival in inWindow { direct[arrival.seq] = arrival.time }
        for arrivals in clients {
            var seen = Set<Int>()
            var latest = Int.min
            for arrival in arrivals where (first...last).contains(arrival.seq) {
                seen.insert(arrival.seq)
                if let time = direct[arrival.seq] {
                    samples.append(arrival.time - time)
                } else {
                    unmatched += 1
                }
            }
            for arrival in arrivals { latest = max(latest, arrival.seq) }
            for arrival in inWindow where !seen.contains(arrival.seq) {
                if arrival.seq < latest { skipped += 1 } else { undelivered += 1 }
            }
        }
        samples.sort()
    }

    /// The `p`th percentile (nearest rank) in milliseconds; 0 without samples.
    func percentileMs(_ p: Double) -> Double {
        guard !samples.isEmpty else { return 0 }
        let rank = Int((p / 100 * Double(samples.count)).rounded(.up)) - 1
        return samples[min(max(rank, 0), samples.count - 1)] * 1000
    }
}
