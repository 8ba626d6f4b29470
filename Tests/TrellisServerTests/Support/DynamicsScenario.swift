#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TrellisCore
import TrellisProtocol
import TrellisServer

/// Physics on any bytes, shared by the `fuzz-dynamics` target and `FuzzRegressionTests` (a
/// symbolic link in Fuzz/Targets/Dynamics), so a kept input is replayed with the very check that
/// failed on it.
///
/// The bytes become requests on one manual-clock session made new for the input, run through
/// the server's own method table (`InProcessServer.call`): free bodies of sizes, centres and
/// angles across the documented ranges, every behaviour type with values picked near the
/// ranges' ends as often as in the middle (densities, strengths, falloffs, regions, attachment
/// kinds, composites), updates and removals of the behaviours added, batch deletes (and
/// re-inserts) of items behaviours name, piles of bodies dropped at one point, and clock steps.
/// The invariant, after every request:
/// - no reply is an internal error (-32603: the server's bug, and also its answer to a result
///   holding a NaN or an infinity, which it never writes);
/// - after every accepted request that can move anything, every dynamic element answers `dynamics.item` and
///   `query.scene` answers, with finite numbers only (an element listed as dynamic that
///   `dynamics.item` does not know is missing, and counts as broken too);
/// - no request takes `requestBound` or more: a stall of the server's loop.
/// Refusals (`invalid_params`, `limit_exceeded`, …) are answers like any other.
///
/// Inputs stay small so one runs in milliseconds: at most `maxOperations` operations (a pile is
/// one operation of up to 40 `body.add`s), `maxBodies` bodies and `maxAdvanceMs` of simulated
/// time.
struct DynamicsScenario {
    static let maxOperations = 64
    static let maxBodies = 200
    static let maxAdvanceMs = 4_000
    /// Wall time a request may not reach. A request is only called stalled when the thread also
    /// spent at least half of it on a CPU: on a machine shared with builds, wall time alone
    /// would blame the server for time it spent waiting for a core.
    static let requestBound = 2.0

    let bytes: [UInt8]

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Runs the input on a new session named `dyn` of `server` and returns the first broken
    /// invariant (the request, what broke, and the requests before it), or nil. `transcript`
    /// is handed every request and its reply, for reading a kept input.
    func problem(on server: InProcessServer, transcript: ((String) -> Void)? = nil) -> String? {
        var run = DynamicsRun(bytes: bytes, server: server, transcript: transcript)
        return run.play()
    }
}

/// One input's run: the reader of its bytes and what the session holds so far.
private struct DynamicsRun {
    let server: InProcessServer
    let transcript: ((String) -> Void)?
    var bytes: [UInt8]
    var position = 0
    var sent: [String] = []
    var problem: String?

    static let session = "dyn"
    var items = (0..<24).map { "i\($0)" }   // section 0, in order
    var deleted: [String] = []
    var bodies: [String] = []                // added and not removed
    var bodiesMade = 0
    var behaviours: [(id: Int, type: String)] = []
    var advancedMs = 0

    init(bytes: [UInt8], server: InProcessServer, transcript: ((String) -> Void)?) {
        self.bytes = bytes
        self.server = server
        self.transcript = transcript
    }

    // MARK: Reading the bytes

    var exhausted: Bool { position >= bytes.count }

    /// The next byte, 0 once they are used up (so the tail of every value is its plainest).
    mutating func byte() -> Int {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return Int(bytes[position])
    }

    mutating func pick<T>(_ options: [T]) -> T { options[byte() % options.count] }

    /// True with probability about `percent` in 100.
    mutating func chance(_ percent: Int) -> Bool { byte() * 100 < percent * 256 }

    /// A number of `lo…hi`: its ends, 0, a value from `typical` or one spread over the range by
    /// powers of ten (so 1e-3 and 1e6 are as likely as 50), about equally often.
    mutating func number(_ lo: Double, _ hi: Double, typical: [Double] = []) -> Double {
        let b = byte()
        switch b % 4 {
        case 0: return [lo, hi, 0, lo / 2, hi / 2][(b / 4) % 5].clamped(lo, hi)
        case 1 where !typical.isEmpty: return typical[(b / 4) % typical.count]
        case 2:
            let largest = max(abs(lo), abs(hi))
            guard largest > 0 else { return 0 }
            let exponent = -3 + Double(byte()) / 255 * (log10(largest) + 3)
            let sign: Double = lo < 0 && b & 64 != 0 ? -1 : 1
            return (sign * pow(10, exponent)).clamped(lo, hi)
        default:
            return lo + (hi - lo) * Double(byte() * 256 + byte()) / 65_535
        }
    }

    mutating func point() -> JSONValue {
        chance(80) ? pair(Double(byte()) * 1.6, Double(byte()) * 3.3)
                   : pair(number(-1e9, 1e9, typical: [-100, 500, 1e4]), number(-1e9, 1e9, typical: [-100, 1000, 1e4]))
    }

    mutating func vector(_ limit: Double = 1e6, typical: [Double] = [-1, 0, 0.5, 1, 2, 10]) -> JSONValue {
        pair(number(-limit, limit, typical: typical), number(-limit, limit, typical: typical))
    }

    mutating func element() -> JSONValue {
        // Mostly what exists; now and then a deleted item, a removed or never added body.
        let useBody = !bodies.isEmpty && chance(55)
        if useBody { return .object(["body": .string(pick(bodies))]) }
        if chance(8) { return .object(["body": .string("b\(bodiesMade + byte() % 3)")]) }
        let id = !deleted.isEmpty && chance(10) ? pick(deleted) : "i\(byte() % 26)"
        return chance(50) ? .string(id) : .object(["item": .string(id)])
    }

    mutating func elements() -> JSONValue {
        let count = chance(15) ? 0 : 1 + byte() % 6
        var list = (0..<count).map { _ in element() }
        if chance(20) { list += bodies.map { .object(["body": .string($0)]) } }   // every body: a pile's contacts
        return .array(list)
    }

    // MARK: Behaviours

    mutating func behaviour(depth: Int = 0) -> JSONValue {
        let types = depth < 3 ? Self.types : Self.types.filter { $0 != "composite" }
        return behaviour(of: pick(types), depth: depth)
    }

    static let types = ["gravity", "collision", "attachment", "snap", "push", "item", "field", "composite"]
    static let fieldKinds = ["linearGravity", "radialGravity", "velocity", "drag", "noise", "turbulence",
                             "spring", "electric", "magnetic", "vortex"]

    mutating func behaviour(of type: String, depth: Int, child: Bool = false) -> JSONValue {
        var b: [String: JSONValue] = ["type": .string(type)]
        func maybe(_ key: String, _ percent: Int = 50, _ value: (inout DynamicsRun) -> JSONValue) {
            if chance(percent) { b[key] = value(&self) }
        }
        switch type {
        case "gravity":
            b["items"] = elements()
            if chance(50) { maybe("gravityDirection", 80) { $0.vector(typical: [0, 1, -1, 0.3, 5]) } }
            else {
                maybe("angle") { .number($0.number(-10_000, 10_000, typical: [0, 1.5707963267948966, 3.14159])) }
                maybe("magnitude") { .number($0.number(-1e6, 1e6, typical: [1, 2, -1, 0.1])) }
            }
            if chance(4) { b["gravityDirection"] = vector() }   // both forms: refused
        case "collision":
            b["items"] = elements()
            maybe("collisionMode") { .string($0.pick(["everything", "items", "boundaries"])) }
            maybe("translatesReferenceBoundsIntoBoundary", 70) { .bool($0.chance(80)) }
            maybe("boundaryInsets", 30) { run in
                .array((0..<4).map { _ in .number(run.number(-1e6, 1e6, typical: [0, 10, -10, 100])) })
            }
            maybe("boundaries", 40) { run in
                .array((0..<(1 + run.byte() % 3)).map { k in
                    var boundary: [String: JSONValue] = ["id": .string(run.chance(10) ? "wall" : "w\(k)")]
                    switch run.byte() % 3 {
                    case 0: boundary["from"] = run.point(); boundary["to"] = run.point()
                    case 1: boundary["rect"] = run.rect()
                    default: boundary["ellipse"] = run.rect()
                    }
                    return .object(boundary)
                })
            }
        case "attachment":
            let kind = pick(["spring", "sliding", "limit", "fixed", "pin"])
            b["item"] = element()
            if chance(10) { b.removeValue(forKey: "item") }
            maybe("kind", 85) { _ in .string(kind) }
            if chance(50) { b["anchor"] = point() } else { b["attachedTo"] = element() }
            if chance(4) { b["anchor"] = point() }   // both: refused
            maybe("offsetFromCenter", 30) { $0.vector(typical: [0, 10, -20, 50]) }
            maybe("attachedOffsetFromCenter", 25) { $0.vector(typical: [0, 10, -20, 50]) }
            maybe("length", 40) { .number($0.number(0, 1e6, typical: [0, 50, 100, 200])) }
            maybe("frequency", 40) { .number($0.number(0, 30, typical: [0, 1, 2, 29.9])) }
            maybe("damping", 40) { .number($0.number(0, 100, typical: [0, 0.3, 1])) }
            if kind == "sliding" || chance(5) {
                maybe("axisOfTranslation", 90) { run in
                    if run.chance(85) {
                        let angle = Double(run.byte()) / 256 * 2 * Double.pi
                        return run.pair(cos(angle), sin(angle))
                    }
                    return run.vector()
                }
            }
            maybe("frictionTorque", 25) { .number($0.number(0, 1e6, typical: [0, 1, 10])) }
            maybe("attachmentRange", 30) { run in
                let low = -run.number(0, 1e9, typical: [0, 1, 50, 3.14]), high = run.number(0, 1e9, typical: [0, 1, 50, 3.14])
                return run.chance(8) ? run.pair(high + 1, low) : run.pair(low, high)
            }
            maybe("attachmentAnchor", 25) { $0.point() }
        case "snap":
            b["item"] = element()
            b["snapPoint"] = point()
            maybe("damping") { .number($0.number(0, 1, typical: [0.5, 0.1, 0.9])) }
        case "push":
            b["items"] = elements()
            maybe("mode") { .string($0.pick(["continuous", "instantaneous"])) }
            if chance(50) { maybe("pushDirection", 80) { $0.vector() } }
            else {
                maybe("angle") { .number($0.number(-10_000, 10_000, typical: [0, 1, -2])) }
                maybe("magnitude") { .number($0.number(-1e6, 1e6, typical: [1, 5, -3])) }
            }
            maybe("targetOffsetFromCenter", 30) { $0.vector(typical: [0, 10, -40]) }
            maybe("active", 30) { .bool($0.chance(70)) }
        case "item":
            b["items"] = elements()
            maybe("density") { .number($0.number(0.000001, 1e6, typical: [1, 0.5, 3, 100])) }
            if chance(3) { b["density"] = .number(0) }   // refused: massless
            maybe("elasticity") { .number($0.number(0, 1, typical: [0, 0.5, 1])) }
            maybe("friction") { .number($0.number(0, 1e6, typical: [0, 0.3, 1])) }
            maybe("resistance") { .number($0.number(0, 1e6, typical: [0, 0.5, 3])) }
            maybe("angularResistance", 30) { .number($0.number(0, 1e6, typical: [0, 0.5, 3])) }
            maybe("allowsRotation", 25) { .bool($0.chance(50)) }
            maybe("anchored", 20) { .bool($0.chance(50)) }
            maybe("charge", 40) { .number($0.number(-1e6, 1e6, typical: [1, -1, 5])) }
            if !child || chance(4) {   // inside a composite: refused
                maybe("addLinearVelocity", 40) { $0.vector(typical: [0, 100, -500, 2000]) }
                maybe("addAngularVelocity", 25) { .number($0.number(-10_000, 10_000, typical: [0, 1, -6])) }
            }
        case "field":
            let kind = pick(Self.fieldKinds)
            if chance(96) { b["kind"] = .string(kind) }
            b["items"] = elements()
            maybe("position", 60) { $0.point() }
            maybe("region", 50) { $0.region(depth: 0) }
            maybe("strength", 70) { .number($0.number(-1e6, 1e6, typical: [1, -1, 5, 0.2, 100])) }
            maybe("falloff", 40) { .number($0.number(-10, 10, typical: [0, 1, 2, -2])) }
            maybe("minimumRadius", 40) { .number($0.number(0, 1e9, typical: [0, 1, 10, 100])) }
            if kind == "linearGravity" || kind == "velocity" || chance(4) {
                maybe("direction", 70) { $0.vector(typical: [0, 1, -1, 3]) }
            }
            if kind == "noise" || kind == "turbulence" || chance(4) {
                maybe("smoothness") { .number($0.number(0, 1, typical: [0.5, 0, 1])) }
                maybe("animationSpeed") { .number($0.number(0, 1_000, typical: [1, 0, 10])) }
                maybe("seed", 30) { .number(Double($0.byte() * 8_388_608 + $0.byte())) }
            }
        default:   // composite
            let count = chance(5) ? 0 : 1 + byte() % 3
            b["children"] = .array((0..<count).map { _ in
                let type = depth < 3 ? pick(Self.types) : pick(Array(Self.types.dropLast()))
                return behaviour(of: type, depth: depth + 1, child: true)
            })
        }
        return .object(b)
    }

    mutating func rect() -> JSONValue {
        let origin = point()
        let size = chance(85) ? pair(Double(byte()) * 3, Double(byte()) * 3)
                              : pair(number(0, 1e9, typical: [0, 1e6]), number(0, 1e9, typical: [0, 1e6]))
        return .array(origin.arrayValue! + size.arrayValue!)
    }

    mutating func region(depth: Int) -> JSONValue {
        let shapes = depth < 4 ? 8 : 4
        switch byte() % shapes {
        case 0: return chance(50) ? .object([:]) : .object(["shape": .string("infinite")])
        case 1: return .object(["shape": .string("rect"), "size": pair(number(0, 1e6, typical: [100, 400]), number(0, 1e6, typical: [100, 400]))])
        case 2: return .object(["shape": .string("circle"), "radius": .number(number(0, 1e6, typical: [60, 200, 1]))])
        case 3: return .object(["shape": .string("ellipse"), "size": pair(number(0, 1e6, typical: [100, 400]), number(0, 1e6, typical: [50, 300]))])
        case 4: return .object(["inverse": region(depth: depth + 1)])
        default:
            let operation = pick(["union", "difference", "intersection"])
            return .object([operation: .array([region(depth: depth + 1), region(depth: depth + 1)])])
        }
    }

    func pair(_ a: Double, _ b: Double) -> JSONValue { .array([.number(a), .number(b)]) }

    // MARK: Playing

    mutating func play() -> String? {
        let created = call("session.create", [
            "name": .string(Self.session), "clock": .string("manual"),
            "bounds": pair(375, 812),
            "layout": .object(["type": .string("flow"), "itemSize": pair(60, 60)]),
            "sections": .array([.object(["id": .string("s0"), "items": .array(items.map { .object(["id": .string($0)]) })])]),
        ])
        guard problem == nil else { return problem }
        guard case .result = created else { return "session.create was refused: \(describe(created))" }
        var operations = 0
        while !exhausted && operations < DynamicsScenario.maxOperations && problem == nil {
            operations += 1
            operate()
        }
        if problem == nil { _ = call("session.destroy", ["session": .string(Self.session)]) }
        return problem
    }

    mutating func operate() {
        let s: (String, JSONValue) = ("session", .string(Self.session))
        switch byte() % 16 {
        case 0, 1:
            guard bodies.count < DynamicsScenario.maxBodies else { return }
            addBody(center: point(), size: chance(70) ? pair(Double(1 + byte()), Double(1 + byte()))
                                                      : pair(number(1, 100_000, typical: [30, 100]), number(1, 100_000, typical: [30, 100])))
        case 2:
            // A pile: many bodies at one point, where contacts are the most numerous.
            let center = point(), side = Double(pick([30, 30, 10, 100, 1]))
            for _ in 0..<(5 + byte() % 36) where problem == nil && bodies.count < DynamicsScenario.maxBodies {
                addBody(center: center, size: pair(side, side))
            }
        case 3:
            let name = !bodies.isEmpty && chance(80) ? pick(bodies) : "b\(bodiesMade + 1)"
            if case .result = call("body.remove", [s.0: s.1, "body": .string(name)]) { bodies.removeAll { $0 == name } }
        case 4, 5, 6, 7:
            let reply = call("dynamics.add", [s.0: s.1, "behavior": behaviour()])
            if case .result(let result) = reply, let id = result["behavior"]?.numberValue {
                behaviours.append((Int(id), sentType ?? "?"))
            }
        case 8, 9:
            guard !behaviours.isEmpty else { return }
            let (id, type) = pick(behaviours)
            var params: [String: JSONValue] = [s.0: s.1, "behavior": .number(Double(id))]
            if case .object(let keys) = behaviour(of: type == "?" ? "gravity" : type, depth: 0) {
                // In the keys' order: a dictionary's own order changes from process to process,
                // and a kept input must replay the same requests.
                for (key, value) in keys.sorted(by: { $0.key < $1.key }) where key != "type" && chance(50) {
                    params[key] = chance(10) ? .null : value
                }
            }
            if chance(3) { params["type"] = .string(pick(Self.types)) }   // a type change: refused
            _ = call("dynamics.update", params)
        case 10:
            let id = !behaviours.isEmpty && chance(85) ? pick(behaviours).id : 1_000 + byte() % 3
            if case .result = call("dynamics.remove", [s.0: s.1, "behavior": .number(Double(id))]) {
                behaviours.removeAll { $0.id == id }
            }
        case 11:
            deleteOrInsertItems()
        case 12:
            _ = call("view.resize", [s.0: s.1, "bounds": chance(80) ? pair(Double(100 + byte() * 3), Double(100 + byte() * 4))
                                                                     : pair(number(1, 1e6, typical: [1]), number(1, 1e6, typical: [1]))])
        default:
            let wanted = pick([0, 1, 16, 17, 50, 100, 250, 500, 1000, 2000, 4000])
            let ms = min(wanted, DynamicsScenario.maxAdvanceMs - advancedMs)
            advancedMs += ms
            _ = call("clock.advance", [s.0: s.1, "ms": .number(Double(ms))])
        }
    }

    mutating func addBody(center: JSONValue, size: JSONValue) {
        // A name now and then reused (body_exists).
        let name = !bodies.isEmpty && chance(3) ? pick(bodies) : "b\(bodiesMade)"
        var params: [String: JSONValue] = ["session": .string(Self.session), "body": .string(name), "center": center, "size": size]
        if chance(30) { params["angle"] = .number(number(-10_000, 10_000, typical: [0, 0.5, -1.2, 3.14159])) }
        if chance(10) { params["zIndex"] = .number(Double(byte() - 128)) }
        if case .result = call("body.add", params) {
            bodies.append(name)
            bodiesMade += 1
        }
    }

    /// Deletes up to three items (behaviours go on naming them), or inserts a deleted one again
    /// under its id, which rejoins the animator if a behaviour still names it.
    mutating func deleteOrInsertItems() {
        let s = JSONValue.string(Self.session)
        if !deleted.isEmpty && chance(40) {
            let id = pick(deleted), at = byte() % (items.count + 1)
            let reply = call("batch", ["session": s, "animated": .bool(chance(30)), "ops": .array([.object([
                "op": .string("insertItems"), "at": .array([pair(0, Double(at))]), "items": .array([.object(["id": .string(id)])]),
            ])])])
            if case .result = reply {
                items.insert(id, at: at)
                deleted.removeAll { $0 == id }
            }
            return
        }
        guard !items.isEmpty else { return }
        let picks = Set((0..<(1 + byte() % 3)).map { _ in byte() % items.count }).sorted()
        let reply = call("batch", ["session": s, "animated": .bool(chance(30)), "ops": .array([.object([
            "op": .string("deleteItems"), "at": .array(picks.map { pair(0, Double($0)) }),
        ])])])
        if case .result = reply {
            for k in picks.reversed() { deleted.append(items.remove(at: k)) }
        }
    }

    // MARK: Requests and the invariant

    /// The type of the behaviour last sent to `dynamics.add`, for updates of the id it got.
    var sentType: String?

    /// Sends one request; checks its reply and time, and after an accepted change, the state.
    mutating func call(_ method: String, _ params: [String: JSONValue]) -> InProcessReply {
        if method == "dynamics.add", case .object(let b)? = params["behavior"] { sentType = b["type"]?.stringValue }
        let reply = timed(method, params)
        if problem == nil, case .result = reply, Self.changes.contains(method) { checkState() }
        return reply
    }

    /// What can change a dynamic element's numbers. (`body.add` places a body at rest where its
    /// finite params say, and `body.remove` takes one away: the next of these checks them, at a
    /// fraction of the cost of a check after each body of a pile.)
    static let changes: Set<String> = ["dynamics.add", "dynamics.update", "dynamics.remove", "batch", "view.resize",
                                       "clock.advance"]

    /// Sends one request and checks that it is not an internal error and took less than the bound.
    mutating func timed(_ method: String, _ params: [String: JSONValue], check: Bool = false) -> InProcessReply {
        let line = (check ? "(check) " : "") + "\(method) \(JSONWriter.string(.object(params)))"
        sent.append(line)
        let wall = ContinuousClock.now, cpu = threadCPUSeconds()
        let reply = server.call(method, .object(params))
        let wallSeconds = Self.seconds(wall.duration(to: .now)), cpuSeconds = threadCPUSeconds() - cpu
        transcript?("→ \(line)\n← \(describe(reply)) (\(Int(wallSeconds * 1000)) ms)")
        guard problem == nil else { return reply }
        if case .error(code: -32603, message: let message, data: _) = reply {
            fail("internal error (-32603): \(message)")
        } else if wallSeconds >= DynamicsScenario.requestBound && cpuSeconds >= DynamicsScenario.requestBound / 2 {
            fail("took \(Int(wallSeconds * 1000)) ms (\(Int(cpuSeconds * 1000)) ms on a CPU); the bound is \(Int(DynamicsScenario.requestBound * 1000)) ms")
        }
        return reply
    }

    /// Every dynamic element answers `dynamics.item` and the scene answers, all with finite numbers.
    mutating func checkState() {
        let session: [String: JSONValue] = ["session": .string(Self.session)]
        guard case .result(let list) = timed("dynamics.list", session, check: true), problem == nil else {
            if problem == nil { fail("dynamics.list was refused after an accepted request") }
            return
        }
        for element in list["items"]?.arrayValue ?? [] where problem == nil {
            switch timed("dynamics.item", ["session": .string(Self.session), "element": element], check: true) {
            case .result(let state):
                if let number = Self.nonFinite(in: state) { fail("dynamics.item for \(JSONWriter.string(element)) holds \(number)") }
            case .error(let code, let message, _):
                if problem == nil { fail("dynamic element \(JSONWriter.string(element)) is missing: dynamics.item answered \(code) \(message)") }
            }
        }
        guard problem == nil else { return }
        switch timed("query.scene", session, check: true) {
        case .result(let scene):
            if let number = Self.nonFinite(in: scene) { fail("query.scene holds \(number)") }
        case .error(let code, let message, _):
            if problem == nil { fail("query.scene answered \(code) \(message)") }
        }
    }

    mutating func fail(_ what: String) {
        // The scenario's own requests, not the checks between them, which say nothing new.
        let before = sent.dropLast().filter { !$0.hasPrefix("(check)") }.suffix(16).map { "    " + Self.shortened($0) }
        problem = "\(Self.shortened(sent.last ?? "")): \(what)\n" +
            "  the scenario's requests before it (\(sent.count - 1) requests in all, checks included), the last of them:\n" +
            before.joined(separator: "\n")
    }

    static func shortened(_ line: String) -> String {
        line.count <= 600 ? line : String(line.prefix(600)) + "…"
    }

    func describe(_ reply: InProcessReply) -> String {
        switch reply {
        case .result(let value): return Self.shortened(JSONWriter.string(value))
        case .error(let code, let message, _): return "error \(code): \(message)"
        }
    }

    static func nonFinite(in value: JSONValue) -> Double? {
        switch value {
        case .number(let n): return n.isFinite ? nil : n
        case .array(let values): return values.lazy.compactMap(nonFinite).first
        case .object(let members): return members.values.lazy.compactMap(nonFinite).first
        default: return nil
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    func threadCPUSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}

private extension Double {
    func clamped(_ lo: Double, _ hi: Double) -> Double { Swift.min(Swift.max(self, lo), hi) }
}
