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
    private let attached = Atomic<Bool>(false)
    private let unanswered = Atomic<Int>(0)

    init(session: String, control: Bool) {
        self.session = session
        self.control = control
    }

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
        var current = unanswered.load(ordering: .relaxed)
        while current < PageRequest.maximumUnanswered {
            let (exchanged, original) = unanswered.compareExchange(expected: current, desired: current + 1, ordering: .relaxed)
            if exchanged { return verdict }
            current = original
        }
        return .refuse(PageRequest.tooManyUnanswered(text))
    }

    /// Called with every line trellisd writes after the attach: a reply answers one request.
    /// Never below zero, so a reply the page did not ask for cannot open room for more.
    func received(_ line: String) {
        guard PageRequest.isReply(line) else { return }
        var current = unanswered.load(ordering: .relaxed)
        while current > 0 {
            let (exchanged, original) = unanswered.compareExchange(expected: current, desired: current - 1, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }
}
