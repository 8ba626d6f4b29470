import TrellisCore
import TrellisProtocol

/// layout.set and the interactive transition: layout.transition.begin/update/finish/cancel.
enum LayoutMethods {
    static let entries: [Method] = [
        Method("layout.set", .changesSession) { context throws(RPCError) in
            try context.allow(WireDecoding.timingKeys + ["session", "layout"])
            let session = try context.sessionBroughtToNow()
            let layout = try context.layout()
            let timing = try context.timing(defaultAnimated: false)
            let transition = session.collectionView.setLayout(layout, animation: timing)
            return .object(["transition": .number(Double(transition)), "layout": .string(layout.typeName)])
        },
        Method("layout.transition.begin", .changesSession) { context throws(RPCError) in
            try context.allow(["session", "layout"])
            let session = try context.sessionBroughtToNow()
            let layout = try context.layout()
            do throws(EngineError) {
                let transition = try session.collectionView.beginInteractiveTransition(to: layout)
                return .object(["transition": .number(Double(transition))])
            } catch { throw .from(error) }
        },
        Method("layout.transition.update", .changesSession) { context throws(RPCError) in
            try context.allow(["session", "progress"])
            let session = try context.sessionBroughtToNow()
            let progress = try context.number("progress", in: ParamRanges.progress)
            do throws(EngineError) { try session.collectionView.updateInteractiveTransition(progress: progress) } catch { throw .from(error) }
            return .object(["progress": .number(progress)])
        },
        Method("layout.transition.finish", .changesSession) { context throws(RPCError) in
            try context.allow(WireDecoding.timingKeys + ["session"])
            let session = try context.sessionBroughtToNow()
            let timing = try context.timing()
            do throws(EngineError) { try session.collectionView.finishInteractiveTransition(animation: timing) } catch { throw .from(error) }
            return .object(["layout": .string(session.collectionView.layout.typeName)])
        },
        Method("layout.transition.cancel", .changesSession) { context throws(RPCError) in
            try context.allow(WireDecoding.timingKeys + ["session"])
            let session = try context.sessionBroughtToNow()
            let timing = try context.timing()
            do throws(EngineError) { try session.collectionView.cancelInteractiveTransition(animation: timing) } catch { throw .from(error) }
            return .object(["layout": .string(session.collectionView.layout.typeName)])
        },
    ]
}
