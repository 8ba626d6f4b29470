import Logging
import TrellisCore
import TrellisProtocol
import TrellisDynamics
#if canImport(Glibc)
import Glibc
#endif

/// Frame publishing with the slow-viewer policy (Redis's client-output-buffer-limit): a
/// session's frame is diffed once and shared by every caught-up viewer; a viewer over the soft
/// limit skips frames and later gets one catch-up delta, one over the hard limit is cut.
extension Server {
    /// Sends the session's new frame and events to its viewers: one encoded delta shared by
    /// every caught-up viewer; a viewer above the soft output limit skips it and later gets one
    /// delta against what it last received; one above the hard limit is disconnected.
    func publish(_ session: Session) {
        session.movedSincePublished = false
        let events = Self.oneDidScroll(session.collectionView.drainEvents())
        if session.clock == .live && session.collectionView.needsTicks { startFrameTimer() }
        guard !session.viewers.isEmpty else {
            return
        }
        // Who is cut, who skips this frame and who gets it, decided before the published state
        // moves on: a viewer that starts lagging keeps the state it holds (a copy-on-write
        // reference; with no such viewer, nothing is copied).
        let now = nowMilliseconds
        var receivers: [Viewer] = [], skipping: [Viewer] = []
        for viewer in session.viewers.values.sorted(by: { $0.connection.id < $1.connection.id }) {
            let queued = viewer.connection.queuedBytes
            if queued > configuration.viewerHardLimitBytes
                || (viewer.overSoftLimitSince.map { now - $0 > configuration.viewerSoftLimitSeconds * 1000 } ?? false) {
                disconnectSlowViewer(viewer, session: session, queued: queued)
            } else if queued > configuration.viewerSoftLimitBytes {
                if viewer.overSoftLimitSince == nil { viewer.overSoftLimitSince = now }
                if viewer.lagging == nil {
                    viewer.lagging = session.published
                    if viewer.debug { viewer.laggingDebug = session.publishedDebug }
                }
                skipping.append(viewer)
            } else {
                viewer.overSoftLimitSince = nil
                receivers.append(viewer)
            }
        }
        let pooled = session.collectionView.reusePool.pooledViewIDs
        session.published.publish(session.collectionView, pooled: pooled, writing: &session.frame)
        let changed = !session.frame.isEmpty
        if changed {
            session.seq += 1
            session.framesPublished += 1
        }
        // The debug layer is built and diffed only while some viewer asks for it; the frame
        // the others get is the same, byte for byte, as without it. A frame that changes only
        // the debug layer keeps the last seq (it is that frame's state, seen closer).
        var debugChanged = false
        if session.hasDebugViewers {
            session.buildDebugLayer()
            session.publishedDebug.publish(&session.debugLayer, writing: &session.debugFrame)
            debugChanged = !session.debugFrame.isEmpty
        } else if !session.publishedDebug.isEmpty {
            session.dropDebugLayer()
        }
        for viewer in skipping {
            if changed { viewer.framesSkipped += 1 }
            // Frames may be skipped, events not: they follow the catch-up delta.
            viewer.missedEvents += events
        }
        // Caught-up viewers share one encoded frame; each viewer's events follow its frame.
        var sharing: [Connection] = [], sharingDebug: [Connection] = []
        for viewer in receivers {
            if viewer.lagging != nil {
                sendCatchUp(viewer, session: session, scene: session.published.scene, pooled: pooled,
                            debugLayer: viewer.debug ? session.publishedDebug.contents : nil)
            } else if viewer.debug {
                if changed || debugChanged {
                    sharingDebug.append(viewer.connection)
                    viewer.framesSent += 1
                }
            } else if changed {
                sharing.append(viewer.connection)
                viewer.framesSent += 1
            }
        }
        for (group, debug) in [(sharing, false), (sharingDebug, true)] where !group.isEmpty {
            guard let bytes = encodeFrame(session.frame, debug: debug ? session.debugFrame : nil, session: session) else {
                for connection in group { dropViewer(connection, session: session) }
                return
            }
            bytes.withUnsafeBytes { raw in
                if let fanout {
                    fanout.send(raw, to: group)
                } else {
                    for connection in group { connection.write(raw) }
                }
            }
        }
        for viewer in receivers {
            for event in events where viewer.wants(event) { sendEvent(event, session: session, to: viewer.connection) }
        }
        if let overload = session.overloadNotice.due(now: now, session: session.name, view: session.collectionView) {
            for viewer in receivers { notify("dynamics.overloaded", overload, to: viewer.connection) }
        }
    }

    /// One delta from what a lagging viewer last received to `scene` (and, for a debug viewer,
    /// to `debugLayer`, the layer of the same moment): it lost frames, not state.
    func sendCatchUp(_ viewer: Viewer, session: Session, scene: Scene, pooled: Set<ViewID>, debugLayer: DebugLayerContents?) {
        guard var state = viewer.lagging else { return }
        viewer.lagging = nil
        var frame = FrameWriter()
        state.publish(scene, pooled: pooled, writing: &frame)
        var debugFrame: DebugFrameWriter?
        if var layer = debugLayer {
            var debugState = viewer.laggingDebug ?? PublishedDebugLayer()
            var written = DebugFrameWriter()
            debugState.publish(&layer, writing: &written)
            debugFrame = written
        }
        viewer.laggingDebug = nil
        guard let bytes = encodeFrame(frame, debug: debugFrame, session: session) else {
            dropViewer(viewer.connection, session: session)
            return
        }
        bytes.withUnsafeBytes { viewer.connection.write($0) }
        viewer.framesSent += 1
        for event in Self.oneDidScroll(viewer.missedEvents) where viewer.wants(event) {
            sendEvent(event, session: session, to: viewer.connection)
        }
        viewer.missedEvents.removeAll()
    }

    /// Catches up lagging viewers whose output has drained below the soft limit (called every
    /// tick while any viewer lags, and after a lagging viewer's own requests).
    func catchUpLaggingViewers() -> Bool {
        var anyLagging = false
        for session in sessions.values {
            for viewer in session.viewers.values where viewer.lagging != nil {
                if viewer.connection.queuedBytes <= configuration.viewerSoftLimitBytes {
                    var debugLayer: DebugLayerContents?
                    if viewer.debug {
                        session.buildDebugLayer()
                        debugLayer = session.debugLayer
                    }
                    sendCatchUp(viewer, session: session, scene: session.collectionView.scene,
                                pooled: session.collectionView.reusePool.pooledViewIDs, debugLayer: debugLayer)
                    viewer.overSoftLimitSince = nil
                } else if nowMilliseconds - (viewer.overSoftLimitSince ?? nowMilliseconds) > configuration.viewerSoftLimitSeconds * 1000 {
                    disconnectSlowViewer(viewer, session: session, queued: viewer.connection.queuedBytes)
                } else {
                    anyLagging = true
                }
            }
        }
        return anyLagging
    }

    func disconnectSlowViewer(_ viewer: Viewer, session: Session, queued: Int) {
        viewersDisconnected += 1
        logger.warning("disconnecting viewer \(viewer.connection.id) of '\(session.name)': \(queued) bytes unread (hard limit \(configuration.viewerHardLimitBytes), soft \(configuration.viewerSoftLimitBytes) for \(configuration.viewerSoftLimitSeconds) s)")
        session.viewers[viewer.connection.id] = nil
        viewer.connection.close(reason: "output buffer over the limit")
    }

    /// A viewer whose frame was refused (it held a non-finite number) no longer mirrors the
    /// session: it is told so by its connection closing, and attaches again for a keyframe.
    func dropViewer(_ connection: Connection, session: Session) {
        session.viewers[connection.id] = nil
        connection.close(reason: "a frame of '\(session.name)' held a non-finite number and was not sent; attach again")
    }

    /// The frame notification's bytes, or nil when a NaN or an infinity reached them (a bug the
    /// log reports: JSON cannot carry it, and `null` in its place would corrupt every mirror).
    func encodeFrame(_ frame: FrameWriter, debug: DebugFrameWriter? = nil, session: Session) -> ByteBuffer? {
        // Frames of an animation are alike in size: start at the last one's, not at 1 KB and
        // six doublings (and copies) later.
        var b = ByteBuffer(capacity: max(1024, session.lastFrameBytes))
        var envelope = JSONObjectWriter(into: &b)
        envelope.field("jsonrpc", "2.0", into: &b)
        envelope.field("method", "frame", into: &b)
        envelope.key("params", into: &b)
        var o = JSONObjectWriter(into: &b)
        o.field("session", session.name, into: &b)
        o.field("seq", session.seq, into: &b)
        frame.write(&o, into: &b)
        if let debug { debug.write(&o, into: &b) }
        o.end(into: &b)
        envelope.end(into: &b)
        b.append(10)
        session.lastFrameBytes = b.count
        guard !b.holdsNonFiniteNumber else {
            refusedNonFinite("frame \(session.seq) of '\(session.name)'", b)
            return nil
        }
        return b
    }

    /// scroll.didScroll at most once per frame: the last offset of those since the last frame;
    /// scroll.band.didScroll likewise, once per band.
    static func oneDidScroll(_ events: [EngineEvent]) -> [EngineEvent] {
        let last = events.lastIndex(where: { if case .scrollDidScroll = $0 { true } else { false } })
        var lastOfBand: [SectionID: Int] = [:]
        for (index, event) in events.enumerated() {
            if case .bandScroll(let e) = event, case .didScroll = e.kind { lastOfBand[e.id] = index }
        }
        guard last != nil || !lastOfBand.isEmpty else { return events }
        return events.enumerated().compactMap { index, event in
            if case .scrollDidScroll = event, index != last { return nil }
            if case .bandScroll(let e) = event, case .didScroll = e.kind, lastOfBand[e.id] != index { return nil }
            return event
        }
    }

    func sendEvent(_ event: EngineEvent, session: Session, to connection: Connection) {
        guard let (method, params) = EventNotification.message(event, session: session.name, time: session.collectionView.time) else { return }
        notify(method, params, to: connection)
    }

    /// One display tick (FrameClock's): brings every moving live session to now and publishes
    /// its frame; returns whether anything still needs ticks (a session moves, a viewer lags).
    func tickLiveSessions() -> Bool {
        var anyAnimating = false
        let now = nowMilliseconds
        // A session whose clock a query moved (landing its last animation) publishes that too.
        let moving = sessions.values.filter { $0.clock == .live && ($0.collectionView.needsTicks || $0.movedSincePublished) }
            .sorted { $0.name < $1.name }
        // Each session's physics gets an equal share of the tick's budget, counted from the
        // tick's start, so one busy session cannot starve the others of their steps.
        let share = configuration.tickBudgetMilliseconds / Double(max(1, moving.count))
        for (k, session) in moving.enumerated() {
            let deadline = now + share * Double(k + 1)
            session.syncClock(toLoopMilliseconds: now) { self.nowMilliseconds < deadline }
            publish(session)
            anyAnimating = anyAnimating || session.collectionView.needsTicks
        }
        return catchUpLaggingViewers() || anyAnimating
    }

    var hasLaggingViewers: Bool {
        sessions.values.contains { $0.viewers.values.contains { $0.lagging != nil } }
    }
}
