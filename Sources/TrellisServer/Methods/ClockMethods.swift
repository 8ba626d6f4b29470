import TrellisCore
import TrellisProtocol

/// clock.advance: moves a manual clock (deterministic scripts and tests step time themselves).
enum ClockMethods {
    static let entries: [Method] = [
        Method("clock.advance", .changesSession) { context throws(RPCError) in
            try context.allow(["session", "ms"])
            let session = try context.session()
            guard session.clock == .manual else {
                throw .domain("invalid_state", "session '\(session.name)' has a live clock; clock.advance needs a session created with clock \"manual\"")
            }
            let ms = try context.number("ms", in: ParamRanges.clockStep)
            session.collectionView.advance(to: session.collectionView.time + ms / 1000)
            return .object(["time": .number(WireEncoding.milliseconds(session.collectionView.time))])
        },
    ]
}
