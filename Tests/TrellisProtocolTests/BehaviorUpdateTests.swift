import Testing
import TrellisProtocol

/// dynamics.update's merge, in the protocol module: keys given replace, null removes, the
/// session and behaviour keys are not settings, and the type cannot change.
@Suite struct BehaviorUpdateTests {
    let settled: JSONValue = .object(["type": .string("gravity"), "items": .array([.string("i0")]), "magnitude": .number(2)])

    @Test func keysReplaceNullRemovesAndTheAddressIsNotASetting() throws {
        let params: JSONValue = .object(["session": .string("s"), "behavior": .number(1),
                                         "magnitude": .null, "angle": .number(1.5)])
        #expect(try BehaviorSpec.updated(settled, by: params)
                == .object(["type": .string("gravity"), "items": .array([.string("i0")]), "angle": .number(1.5)]))
    }

    @Test func theTypeCannotChange() {
        let params: JSONValue = .object(["behavior": .number(1), "type": .string("push")])
        #expect(throws: ParamError(path: "params.type", .refused(
            "a behaviour's type cannot change (it is \"gravity\"): remove it and add a new one"))) {
            try BehaviorSpec.updated(settled, by: params)
        }
        // The same type again is no change.
        #expect((try? BehaviorSpec.updated(settled, by: .object(["type": .string("gravity")]))) == settled)
    }
}
