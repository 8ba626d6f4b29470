/// The tick's timed-animations stage (`TickStage.timedAnimations`): the timed animations of batch
/// updates, layout transitions and animated scrolls, grouped in transactions (UIKit's completion
/// blocks). The animations themselves ride in what they move — each bound or disappearing view
/// carries its own, the offset's is in `ScrollMotion` — so a frame steps them in place; this stage
/// keeps the transactions, counts what still runs in each and reports each one's end.
struct TimedAnimations: Sendable {
    private(set) var transactions: [Int: AnimationTransaction] = [:]
    private(set) var nextID = 1

    /// True while a transaction has animations that run by time (an interactive transition's
    /// wait for its progress does not count).
    var needsTicks: Bool { transactions.values.contains { $0.remaining > 0 && !$0.interactive } }

    var isEmpty: Bool { transactions.isEmpty }

    subscript(id: Int) -> AnimationTransaction? {
        get { transactions[id] }
        set { transactions[id] = newValue }
    }

    /// Starts a transaction and returns its id.
    mutating func begin(_ kind: AnimationTransaction.Kind, interactive: Bool = false) -> Int {
        let id = nextID
        nextID += 1
        transactions[id] = AnimationTransaction(id: id, kind: kind, remaining: 0, interactive: interactive)
        return id
    }

    /// One more animation runs in `id`.
    mutating func add(to id: Int) { transactions[id]?.remaining += 1 }

    /// Ends `id` now, reporting `finished`; nil when it had already ended.
    mutating func end(_ id: Int, finished: Bool) -> EngineEvent? {
        guard let t = transactions.removeValue(forKey: id) else { return nil }
        return t.completion(finished: finished)
    }

    /// Ends `id` when nothing runs in it any more (a transaction with nothing to animate ends
    /// at once).
    mutating func endIfIdle(_ id: Int) -> EngineEvent? {
        guard let t = transactions[id], t.remaining <= 0 else { return nil }
        return end(id, finished: true)
    }

    /// One animation of `id` stopped early: ends the transaction as interrupted when it was its last.
    mutating func release(_ id: Int) -> EngineEvent? {
        guard transactions[id] != nil else { return nil }
        transactions[id]!.remaining -= 1
        return transactions[id]!.remaining <= 0 ? end(id, finished: false) : nil
    }

    /// Counts the animations that landed and ends, oldest first, every transaction that has
    /// none left.
    mutating func land(_ landed: [Int]) -> [EngineEvent] {
        for id in landed { transactions[id]?.remaining -= 1 }
        var events: [EngineEvent] = []
        for id in transactions.keys.sorted() where transactions[id]!.remaining <= 0 {
            if let event = end(id, finished: true) { events.append(event) }
        }
        return events
    }

    /// Ends every transaction but `kept` as interrupted (finished = false), oldest first.
    mutating func interruptAll(except kept: Int? = nil) -> [EngineEvent] {
        let ended = transactions.keys.sorted().filter { $0 != kept }
        let events = ended.map { transactions[$0]!.completion(finished: false) }
        for id in ended { transactions[id] = nil }
        return events
    }

    /// Puts back transactions saved in a snapshot (`MotionState`), and the next id to give.
    mutating func restore(_ saved: [AnimationTransaction], nextID: Int) {
        transactions = Dictionary(uniqueKeysWithValues: saved.map { ($0.id, $0) })
        self.nextID = Swift.max(nextID, (saved.map(\.id).max() ?? 0) + 1)
    }
}

extension AnimationTransaction {
    /// The event that reports this transaction's end.
    func completion(finished: Bool) -> EngineEvent {
        switch kind {
        case .update: return .updateCompleted(update: id, finished: finished)
        case .layout: return .transitionCompleted(transition: id, finished: finished, installed: !cancelled)
        case .scroll: return .scrollCompleted(scroll: id, finished: finished)
        }
    }
}

extension CollectionView {
    /// The tick's timed-animations stage.
    mutating func stepTimedAnimations(_ tick: inout TickInProgress) {
        tick.landed = stepAnimations(alsoLanded: tick.scrollLanded)
    }

    /// Moves every view's animation to the current time, lands the ones that ended (with
    /// `alsoLanded`, the offset's, from the scroll-motion stage) and reports each transaction
    /// whose last animation landed. Returns true when something landed (binding must follow).
    mutating func stepAnimations(alsoLanded scrollLanded: Int? = nil) -> Bool {
        guard !animations.isEmpty else { return false }
        var landed: [Int] = scrollLanded.map { [$0] } ?? []
        var progress = ProgressCache(time: time)
        // Each view is changed in place through `step`: a copy of a BoundView carries two whole
        // attribute sets in its animation.
        for index in bound.indices {
            if let transaction = bound[row: index].step(time: time, progress: &progress) {
                landed.append(transaction)
            }
        }
        var stillDisappearing: [DisappearingView] = []
        for var d in disappearing {
            // As bound views move (an interactive animation stays put).
            if let transaction = d.animation.move(&d.attributes, time: time, progress: &progress) {
                reusePool.enqueue(d.view, reuseIdentifier: d.reuseIdentifier)
                landed.append(transaction)
            } else {
                stillDisappearing.append(d)
            }
        }
        disappearing = stillDisappearing
        pendingEvents += animations.land(landed)
        return !landed.isEmpty
    }
}
