import Synchronization

/// One page's way to trellisd: what it sends is checked (`PageRequest`) and counted here, by the
/// task that reads the page, while the bridge, reading trellisd, marks the attach and counts
/// the replies back down. Nothing is forwarded before the attach took, so a page's request never
/// reaches a connection that is not (yet) the page's viewer.
final class PageRelay: Sendable {
    /// The session the page watches.
    let session: String
    /// `--control`: the page may drive the session.
    let control: Bool
    /// What `forward` let through, in order, for the bridge to write to trellisd.
    let requests: AsyncStream<String>
    private let feed: AsyncStream<String>.Continuation
    private let attached = Atomic<Bool>(false)
    private let unanswered = Atomic<Int>(0)

    init(session: String, control: Bool) {
        self.session = session
        self.control = control
        (requests, feed) = AsyncStream<String>.makeStream()
    }

    /// Admits one text message from the page: nil when it went to `requests`, else the reply
    /// that refuses it, for the page.
    func forward(_ text: String) -> String? {
        switch admit(text) {
        case .forward(let line):
            feed.yield(line)
            return nil
        case .refuse(let reply):
            return reply
        }
    }

    /// The page went away: `requests` ends.
    func finish() { feed.finish() }

    /// The attach reply came with a keyframe: the page's requests may go through from now on.
    func markAttached() { attached.store(true, ordering: .releasing) }

    /// Requests forwarded and not answered yet.
    var waiting: Int { unanswered.load(ordering: .relaxed) }

    /// What to do with one text message from the page.
    func admit(_ text: String) -> PageRequest.Verdict {
        guard attached.load(ordering: .acquiring) else {
            return .refuse(PageRequest.refusal(id: .null, code: -32008, dataCode: "invalid_state",
                                             "not attached yet: send requests after the attach reply"))
        }
        let verdict = PageRequest.check(text, session: session, control: control)
        guard case .forward = verdict else { return verdict }
        return countUnanswered(by: 1, unless: { $0 >= PageRequest.maximumUnanswered })
            ? verdict : .refuse(PageRequest.tooManyUnanswered(text))
    }

    /// Called with every line trellisd writes after the attach: a reply answers one request.
    /// Never below zero, so a reply the page did not ask for cannot open room for more.
    func received(_ line: String) {
        guard PageRequest.isReply(line) else { return }
        _ = countUnanswered(by: -1, unless: { $0 <= 0 })
    }

    /// Adds `delta` to the unanswered count unless `refused` holds for it; whether it did.
    private func countUnanswered(by delta: Int, unless refused: (Int) -> Bool) -> Bool {
        var current = unanswered.load(ordering: .relaxed)
        while !refused(current) {
            let (exchanged, original) = unanswered.compareExchange(expected: current, desired: current + delta, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
        return false
    }
}
