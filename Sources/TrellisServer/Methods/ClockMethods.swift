import TrellisCore
import TrellisProtocol

/// clock.advance: moves a manual clock (deterministic scripts and tests step time themselves).
enum ClockMethods {
    static let entries: [Method] = [
        Method("clock.advance", .changesSession) { context throws(RPCError) in
            try context.allow(["session", "ms"])
            let session = try context.sessionBroughtToNow()
            guard session.clock == .manual else {
                throw .domain("invalid_state", "session '\(session.name)' has a live clock; clock.advance needs a session created with clock \"manual\"")
            }
            let ms = try context.number("ms", in: ParamRanges.clockStep)
            let target = session.collectionView.time + ms / 1000
            // A long advance over restless physics goes on over later loop turns, a budget at a
            // time, so every other client is served meanwhile; the steps and the result are the
            // same as in one go. The reply (and the journal line) wait for the last step.
            guard context.canDefer else {
                session.collectionView.advance(to: target)
                return result(session)
            }
            if session.collectionView.advance(to: target, dynamicsWhile: context.withinBudget, overrun: .defer) {
                return result(session)
            }
            context.deferred = DeferredWork(session: session) { session, more in
                session.collectionView.continueAdvance(dynamicsWhile: more) ? .value(result(session)) : nil
            }
            return .null
        },
    ]

    static func result(_ session: Session) -> JSONValue {
        .object(["time": .number(WireEncoding.milliseconds(session.collectionView.time))])
    }
}
