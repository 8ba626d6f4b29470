import TrellisCore
import TrellisProtocol

/// hello, stats, shutdown.
enum ServerMethods {
    static let version: StaticString = "0.1.0"
    static let protocolVersion = 1

    static let entries: [Method] = [
        Method("hello", .reads) { context throws(RPCError) in
            try context.allow(["client"])
            // Written straight into the reply (every client's first call, and the benchmarks').
            let limit = context.server.configuration.maximumMessageBytes
            return context.encoded(capacity: 128) { writeHello(maximumMessageBytes: limit, into: &$0) }
        },
        Method("stats", .reads) { context throws(RPCError) in
            try context.allow(["session"])
            let server = context.server
            if context.params.field("session") != nil {
                return sessionStats(try context.sessionBroughtToNow())
            }
            return .object([
                "sessions": .number(Double(server.sessions.count)),
                "clients": .number(Double(server.clients.count)),
                "requests": .number(Double(server.requestsHandled)),
                "viewersDisconnected": .number(Double(server.viewersDisconnected)),
                "clientsDisconnected": .number(Double(server.clientsCutForOutput)),
                "nonFiniteRefused": .number(Double(server.nonFiniteRefusals)),
                "memoryTrims": .number(Double(server.memoryTrim.trims)),
                "ticking": .bool(server.isTicking),
                "uptimeMs": .number(server.nowMilliseconds.rounded()),
                "persistence": server.persistence?.stats ?? .null,
                "frameTimeMs": frameTimes(server.frameClock.timings),
                "frameCpuMs": frameTimes(server.frameClock.cpuTimings),
                "framesSpliced": .number(Double(server.fanout?.framesSpliced ?? 0)),
                "spliceFallbacks": .number(Double(server.fanout?.writesFallenBack ?? 0)),
                "requestTimeMs": frameTimes(server.requestTimings),
                "pendingRequests": .number(Double(server.pendingRequests.count)),
                "budgets": .object(["tickMs": .number(server.configuration.tickBudgetMilliseconds),
                                    "requestMs": .number(server.configuration.requestBudgetMilliseconds)]),
                "limits": .object(["bodies": .number(Double(server.configuration.maximumBodies)),
                                   "behaviors": .number(Double(server.configuration.maximumBehaviors)),
                                   "contacts": .number(Double(server.configuration.maximumContacts))]),
            ])
        },
        Method("shutdown", .changesServer) { context throws(RPCError) in
            try context.allow([])
            // The reply goes out first; the dispatcher stops the server right after it.
            context.server.shutdownRequested = true
            return .object(["stopping": .bool(true)])
        },
    ]

    /// `hello`'s result; also written straight into the output by the direct path
    /// (`Server.answerDirectly`), which must give the same bytes.
    static func writeHello(maximumMessageBytes limit: Int, into b: inout ByteBuffer) {
        // Constant runs appended whole (a few appends, not one per key and quote): every reply of
        // the RPC benchmark is this. Keys in the order the JSON writer sorts them.
        b.append(#"{"limits":{"maxMessageBytes":"#)
        JSONWriter.writeInt(limit, into: &b)
        b.append(#"},"protocol":"#)
        JSONWriter.writeInt(protocolVersion, into: &b)
        b.append(#","server":"trellisd","version":""#)
        b.append(version)
        b.append(#""}"#)
    }

    /// The live ticks' durations (wall clock or on-CPU): what one frame costs the server for all
    /// sessions and viewers.
    static func frameTimes(_ timings: FrameTimings) -> JSONValue {
        let s = timings.summary
        func ms(_ x: Double) -> JSONValue { .number((x * 1000).rounded() / 1000) }
        return .object(["ticks": .number(Double(s.count)), "p50": ms(s.p50), "p99": ms(s.p99), "max": ms(s.max)])
    }

    static func sessionStats(_ session: Session) -> JSONValue {
        let view = session.collectionView
        var pools: [String: JSONValue] = [:]
        for (identifier, counters) in view.reusePool.counters {
            pools[identifier] = .object([
                "created": .number(Double(counters.created)), "reused": .number(Double(counters.reused)),
                "destroyed": .number(Double(counters.destroyed)), "pooled": .number(Double(view.reusePool.pooledCount(identifier))),
            ])
        }
        let viewers: [JSONValue] = session.viewers.values.sorted { $0.connection.id < $1.connection.id }.map { v in
            .object(["client": .number(Double(v.connection.id)), "readOnly": .bool(v.readOnly),
                     "framesSent": .number(Double(v.framesSent)), "framesSkipped": .number(Double(v.framesSkipped)),
                     "queuedBytes": .number(Double(v.connection.queuedBytes)), "debug": .bool(v.debug)])
        }
        return .object([
            "session": .string(session.name), "seq": .number(Double(session.seq)),
            "frames": .number(Double(session.framesPublished)), "views": .number(Double(view.boundViewCount)),
            "animating": .bool(view.needsTicks), "pool": .object(pools), "viewers": .array(viewers),
            "items": .number(Double(view.data.totalItemCount)), "sections": .number(Double(view.data.numberOfSections)),
            "dynamics": dynamicsStats(view.dynamicsLoad),
            "debugShapesBuilt": .number(Double(session.debugShapesBuilt)),
        ])
    }

    /// What the session's physics holds, and what it had to give up to stay within its budgets.
    static func dynamicsStats(_ load: DynamicsLoad) -> JSONValue {
        .object([
            "bodies": .number(Double(load.bodies)), "behaviors": .number(Double(load.behaviors)),
            "stopped": .number(Double(load.stopped)), "dynamicItems": .number(Double(load.dynamicItems)),
            "contacts": .number(Double(load.contacts)), "stepsOverContactLimit": .number(Double(load.stepsOverContactLimits)),
            "contactsDropped": .number(Double(load.contactPointsDropped)), "stepsDropped": .number(Double(load.stepsDropped)),
            "behindMs": .number((load.timeDropped * 1000).rounded()), "pairsPastStore": .number(Double(load.pairsPastStore)),
        ])
    }
}
