import TrellisCore
import TrellisProtocol

/// scroll.to (setContentOffset) and scroll.toItem (scrollToItem), at once or animated;
/// scroll.configure (UIScrollView's bouncing, paging, deceleration rate, scrollEnabled).
enum ScrollMethods {
    static let entries: [Method] = [
        Method("scroll.configure", .changesSession) { context throws(RPCError) in
            let session = try context.sessionBroughtToNow()
            let configuration: ScrollConfiguration
            do throws(ParamError) {
                configuration = try ScrollWire.configuration(context.params, path: "params", base: session.collectionView.scrollConfiguration)
            } catch { throw .invalidParams(error) }
            session.collectionView.configureScrolling(configuration)
            return ScrollWire.json(configuration)
        },
        Method("scroll.to", .changesSession) { context throws(RPCError) in
            if context.params.field("section") != nil { return try scrollSection(&context) }
            try context.allow(WireDecoding.timingKeys + ["session", "offset"])
            let session = try context.sessionBroughtToNow()
            let p = try context.numbers("offset", ["x", "y"], in: ParamRanges.coordinate)
            let timing = try context.timing(defaultAnimated: false, base: .scroll)
            let scroll: Int?
            do throws(EngineError) { scroll = try session.collectionView.setContentOffset(Point(p[0], p[1]), timing: timing) } catch { throw .from(error) }
            return offsetResult(session, scroll: scroll)
        },
        Method("scroll.toItem", .changesSession) { context throws(RPCError) in
            try context.allow(WireDecoding.timingKeys + ["session", "at", "position"])
            let session = try context.sessionBroughtToNow()
            let at = try context.indexPath("at")
            let name = try context.optionalString("position") ?? "top"
            guard let position = ScrollPosition(names: name) else {
                throw .invalidParams("params.position: expected top, centeredVertically, bottom, left, centeredHorizontally or right (one per axis, joined with ','), found \"\(name)\"")
            }
            let timing = try context.timing(defaultAnimated: false, base: .scroll)
            let scroll: Int?
            do throws(EngineError) { scroll = try session.collectionView.scrollToItem(at: at, position: position, timing: timing) } catch { throw .from(error) }
            return offsetResult(session, scroll: scroll)
        },
    ]

    /// `scroll.to {session, section: N, offset: X, animated?}`: one orthogonal section's offset
    /// across, clamped to its range; animated, it settles there as a released scroll does (no
    /// duration or curve). Replies with the section's offset (its target while it moves) and range.
    private static func scrollSection(_ context: inout MethodContext) throws(RPCError) -> JSONValue {
        try context.allow(["session", "section", "offset", "animated"])
        let session = try context.sessionBroughtToNow()
        let section: Int
        do { section = try context.reader.int("section", 0...Int(Int32.max), default: 0) } catch { throw .invalidParams(error) }
        let offset = try context.number("offset", in: ParamRanges.coordinate)
        let animated = try context.optionalBool("animated") ?? false
        do throws(EngineError) { try session.collectionView.setOrthogonalOffset(offset, section: section, animated: animated) } catch { throw .from(error) }
        let view = session.collectionView
        let band = view.layout.orthogonalBand(section: section)
        let entry = view.orthogonalScrolling.sections[view.data.sections[section].id]
        let target = entry?.motion.map { $0.anchor } ?? entry?.offset ?? 0
        return .object(["section": .number(Double(section)), "offset": .number(target),
                        "range": .array([.number(band?.minimumOffset ?? 0), .number(band?.maximumOffset ?? 0)])])
    }

    /// The model offset (the target while a scroll animates), the content size, and an animated
    /// scroll's id (its `scroll.completed` notification).
    static func offsetResult(_ session: Session, scroll: Int? = nil) -> JSONValue {
        let s = session.collectionView.scroll
        var result: [String: JSONValue] = [
            "contentOffset": .array([.number(s.contentOffset.x), .number(s.contentOffset.y)]),
            "contentSize": .array([.number(s.contentSize.width), .number(s.contentSize.height)])]
        if let scroll { result["scroll"] = .number(Double(scroll)) }
        return .object(result)
    }
}
