import TrellisCore
import TrellisProtocol

/// view.resize: a new bounds size (a rotation, a window resize).
enum ViewMethods {
    static let entries: [Method] = [
        Method("view.resize", .changesSession) { context throws(RPCError) in
            try context.allow(["session", "bounds"])
            let session = try context.sessionBroughtToNow()
            let bounds = try context.numbers("bounds", ["width", "height"], in: ParamRanges.bounds, positive: true)
            session.collectionView.resize(to: Size(bounds[0], bounds[1]))
            return ScrollMethods.offsetResult(session)
        },
    ]
}
