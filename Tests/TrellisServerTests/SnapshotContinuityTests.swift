import Foundation
import Testing
import TrellisCore
import TrellisDynamics
import TrellisGeometry
import TrellisProtocol
@testable import TrellisServer

/// A session restored from a snapshot goes on as one that never stopped, bit for bit, even
/// mid-pile: the snapshot keeps what the animator carries from step to step (the contacts' and
/// joints' warm start, which contacts touch, rest timers, the fraction of a step not yet
/// simulated) and what behaviours took when added (a pin's frame, a noise field's clock).
/// Before, a restored pile drifted by hundreds of points within two seconds.
@Suite struct SnapshotContinuityTests {
    /// 60 boxes dropped in rows into a 400 × 600 view, a pinned bar among them, a noise field
    /// and a collision behaviour whose boundaries are the bounds and a named segment.
    static func pile() throws -> CollectionView {
        var view = CollectionView(boundsSize: Size(400, 600), layout: FlowLayout(), data: CollectionData())
        for k in 0..<60 {
            try view.addBody(name: "b\(k)", center: Point(40 + 32 * Double(k % 10) + Double(k / 10 % 2) * 7, 40 + 34 * Double(k / 10)),
                             size: Size(30, 30))
        }
        try view.addBody(name: "bar", center: Point(200, 400), size: Size(160, 12))
        let names = (0..<60).map { "b\($0)" } + ["bar"]
        func add(_ spec: JSONValue) throws {
            var resolver = view.dynamicElementResolver()
            let behavior = try BehaviorSpec.decode(spec, path: "behavior", resolver: &resolver)
            view.addDynamicBehavior(behavior, spec: WireBehaviorSpec(spec), resolver: resolver)
        }
        let items = JSONValue.array(names.map { .object(["body": .string($0)]) })
        try add(.object(["type": .string("gravity"), "items": items]))
        try add(.object(["type": .string("collision"), "items": items, "translatesReferenceBoundsIntoBoundary": .bool(true),
                         "boundaries": .array([.object(["id": .string("ledge"), "from": .array([.number(0), .number(300)]),
                                                        "to": .array([.number(120), .number(330)])])])]))
        try add(.object(["type": .string("item"), "items": items, "friction": .number(0.4), "elasticity": .number(0.2)]))
        try add(.object(["type": .string("attachment"), "kind": .string("pin"), "item": .object(["body": .string("bar")]),
                         "anchor": .array([.number(200), .number(400)])]))
        try add(.object(["type": .string("field"), "kind": .string("noise"), "strength": .number(0.3), "items": items]))
        // A spring between two items: stepped as leapfrog, its stepping velocities carried in
        // the snapshot (`SteppedKick`); without them the pair went on half a kick off.
        try add(.object(["type": .string("attachment"), "item": .object(["body": .string("b3")]),
                         "attachedTo": .object(["body": .string("b17")]), "frequency": .number(2.5), "damping": .number(0.1)]))
        return view
    }

    static func states(_ view: CollectionView) throws -> [DynamicItemState] {
        try view.freeBodies.map { body throws in try view.dynamicState(of: .body(body.name)) }
    }

    @Test func aPileRestoredMidFallGoesOnBitForBit() throws {
        var view = try Self.pile()
        view.advance(to: 1.23)   // mid-fall, mid-step: boxes landing, contacts warm, a fraction of a step pending
        _ = view.drainEvents()
        let session = Session(name: "p", collectionView: view, clock: .manual, epochMilliseconds: 0)
        let bytes = StateSnapshot(seq: 1, sessions: [try SessionState(session)]).bytes.bytes
        var rebuilt = try StateSnapshot(bytes: bytes, file: "snapshot.json").sessions[0].makeView()
        _ = rebuilt.drainEvents()
        #expect(try Self.states(rebuilt) == Self.states(view))
        for k in 1...150 {
            let t = 1.23 + Double(k) * 0.0213
            view.advance(to: t)
            rebuilt.advance(to: t)
            let expected = view.drainEvents(), got = rebuilt.drainEvents()
            #expect(got == expected, "events differ at \(t)")
            guard try Self.states(rebuilt) == Self.states(view) else {
                let a = try Self.states(view), b = try Self.states(rebuilt)
                let worst = zip(a, b).map { $0.center.distance(to: $1.center) }.max() ?? 0
                Issue.record("the restored pile left the uninterrupted one at \(t) s: \(worst) pt apart")
                return
            }
        }
        #expect(rebuilt.scene == view.scene)
        #expect(rebuilt.dynamicsRunning == view.dynamicsRunning)
    }

    /// The springs' carried offsets in a snapshot are checked as they are read: a tampered row
    /// (a step of 0 or past 1 s, an offset past the world's ±1e12, a count other than five, a
    /// fractional item) is refused naming its path; a good one reads back as written.
    @Test func carriedSpringOffsetsAreCheckedWhenRead() throws {
        var view = try Self.pile()
        view.advance(to: 0.5)
        let session = Session(name: "p", collectionView: view, clock: .manual, epochMilliseconds: 0)
        let state = try SessionState(session)
        let carry = try #require(state.dynamics.carryOver)
        #expect(!carry.kicks.isEmpty, "the pile's spring steps two boxes")
        let solver = DynamicsStateCoding.solver(carry, timestep: nil)
        let (read, _) = try DynamicsStateCoding.carryOver(solver, path: "s")
        #expect(read.kicks == carry.kicks)
        for (row, says) in [("[3, 1, 2, 0, 0]", "(0, 1] s"), ("[3, 1, 2, 0, 2]", "(0, 1] s"), ("[3, 1e13, 2, 0, 0.01]", "±1e12"),
                            ("[3, 1, 2, 0]", "5…5 numbers"), ("[3.5, 1, 2, 0, 0.01]", "a whole number")] {
            guard case .object(var o) = solver else { Issue.record("not an object"); return }
            o["kicks"] = try JSONParser.parse(Array("[\(row)]".utf8))
            do {
                _ = try DynamicsStateCoding.carryOver(.object(o), path: "s")
                Issue.record("\(row) was accepted")
            } catch {
                #expect(error.message.hasPrefix("s.kicks[0]") && error.message.contains(says), "\(row): \(error.message)")
            }
        }
    }
}
