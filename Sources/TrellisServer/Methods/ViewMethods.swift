import TrellisCore
import TrellisProtocol

/// view.resize: a new bounds size (a rotation, a window resize); view.inset: UIScrollView's contentInset.
enum ViewMethods {
    static let entries: [Method] = [
        Method("view.resize", .changesSession) { context throws(RPCError) in
            try context.allow(["session", "bounds"])
            let session = try context.sessionBroughtToNow()
            let bounds = try context.numbers("bounds", ["width", "height"], in: ParamRanges.bounds, positive: true)
            session.collectionView.resize(to: Size(bounds[0], bounds[1]))
            return ScrollMethods.offsetResult(session)
        },
        Method("view.inset", .changesSession) { context throws(RPCError) in
            try context.allow(["session", "contentInset"])
            let session = try context.sessionBroughtToNow()
            session.collectionView.setContentInset(try context.insets("contentInset"))
            return ScrollMethods.offsetResult(session)
        },
    ]
}
