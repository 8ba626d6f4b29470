import Testing
import TrellisClient
import TrellisCore
import TrellisProtocol

private func numbers(_ values: [Double]) -> JSONValue { .array(values.map { .number($0) }) }

private func build(_ type: String, _ elements: [String] = [], _ options: [(String, String)] = [],
                   merges: [String] = [], sets: [String] = [], update: Bool = false) throws -> [String: JSONValue] {
    var b = BehaviorBuilder(type: type)
    b.elements = elements
    b.options = options.map { (name: $0.0, value: $0.1) }
    b.merges = merges
    b.sets = sets
    b.isUpdate = update
    return try b.behavior()
}

private func refusal(_ body: () throws -> Any) -> String? {
    do { _ = try body(); return nil } catch let error as SyntaxError { return error.message } catch { return "\(error)" }
}

/// Swift Testing has an `Expectation` of its own.
private typealias ScriptExpectation = TrellisClient.Expectation

private func expectation(_ line: String) throws -> ScriptExpectation {
    try ExpectationSyntax.parse(try ScriptTokenizer.words(line))
}

/// The CLI's words for bodies and behaviours (`trellis dynamics add …`) and expectations on
/// dynamic state, against the protocol's BEHAVIOR objects and `dynamics.item` answers.
@Suite struct DynamicsSyntaxTests {
    // MARK: Elements

    @Test func elementsAreItemIdsOrBodies() throws {
        #expect(try DynamicElement.parse("i3") == .item("i3"))
        #expect(try DynamicElement.parse("item:body:x") == .item("body:x"))
        #expect(try DynamicElement.parse("body:panel") == .body("panel"))
        #expect(DynamicElement.body("panel").wire == .object(["body": .string("panel")]))
        #expect(DynamicElement.item("i3").wire == .string("i3"))
        #expect(refusal { try DynamicElement.parse("body:") } == "'body:': expected body:NAME")
        // Answers name elements in every form the protocol has; printing round-trips.
        #expect(DynamicElement(wire: .object(["item": .string("i3")])) == .item("i3"))
        #expect(DynamicElement(wire: .object(["kind": .string("body"), "section": .number(0), "item": .number(0), "id": .string("p")])) == .body("p"))
        #expect(DynamicElement.item("body:x").argument == "item:body:x")
        #expect(try DynamicElement.parse(DynamicElement.item("body:x").argument) == .item("body:x"))
    }

    // MARK: Behaviours

    @Test func elementWordsAreIndexPathsRangesAllOrElements() throws {
        #expect(try ElementSelection.parse("0:3") == .indexPaths([IndexPath(0, 3)]))
        #expect(try ElementSelection.parse("1:0..2") == .indexPaths([IndexPath(1, 0), IndexPath(1, 1), IndexPath(1, 2)]))
        #expect(try ElementSelection.parse("all") == .all)
        #expect(try ElementSelection.parse("i3") == .element(.item("i3")))
        #expect(try ElementSelection.parse("item:0:3") == .element(.item("0:3")))
        #expect(try ElementSelection.parse("item:all") == .element(.item("all")))
        #expect(try ElementSelection.parse("body:card") == .element(.body("card")))
        #expect(throws: SyntaxError.self) { try ElementSelection.parse("0:5..3") }
        #expect(try ElementSelection.parse("0:0..1").standIns == ["item:0:0", "item:0:1"])
    }

    @Test func optionsSetTheKeyOfTheirType() throws {
        #expect(try build("gravity", ["i0", "body:card"], [("direction", "0,1"), ("magnitude", "2")]) == [
            "type": .string("gravity"), "items": .array([.string("i0"), .object(["body": .string("card")])]),
            "gravityDirection": numbers([0, 1]), "magnitude": .number(2)])
        #expect(try build("push", ["i0"], [("direction", "1,0"), ("mode", "instantaneous"), ("offset", "0,-10")]) == [
            "type": .string("push"), "items": .array([.string("i0")]), "pushDirection": numbers([1, 0]),
            "mode": .string("instantaneous"), "targetOffsetFromCenter": numbers([0, -10])])
        #expect(try build("field", ["i0"], [("direction", "1,0"), ("kind", "spring"), ("region", "rect:375,333.5"),
                                            ("min-radius", "5"), ("speed", "2")]) == [
            "type": .string("field"), "items": .array([.string("i0")]), "direction": numbers([1, 0]), "kind": .string("spring"),
            "region": .object(["shape": .string("rect"), "size": numbers([375, 333.5])]),
            "minimumRadius": .number(5), "animationSpeed": .number(2)])
        #expect(try build("item", ["i0"], [("no-rotation", ""), ("angular-resistance", "3"), ("velocity", "0,-800"), ("anchored", "")]) == [
            "type": .string("item"), "items": .array([.string("i0")]), "allowsRotation": .bool(false),
            "angularResistance": .number(3), "addLinearVelocity": numbers([0, -800]), "anchored": .bool(true)])
    }

    @Test func collisionBoundariesRepeatInOrder() throws {
        let b = try build("collision", ["i0"], [("bounds-boundary", ""), ("insets", "10"), ("mode", "boundaries"),
                                                ("boundary", "floor:0,600,375,600"), ("boundary", "box:rect:10,20,30,40"),
                                                ("boundary", "bowl:ellipse:0,0,100,50")])
        #expect(b["translatesReferenceBoundsIntoBoundary"] == .bool(true))
        #expect(b["boundaryInsets"] == numbers([10, 10, 10, 10]))
        #expect(b["collisionMode"] == .string("boundaries"))
        #expect(b["boundaries"] == .array([
            .object(["id": .string("floor"), "from": numbers([0, 600]), "to": numbers([375, 600])]),
            .object(["id": .string("box"), "rect": numbers([10, 20, 30, 40])]),
            .object(["id": .string("bowl"), "ellipse": numbers([0, 0, 100, 50])]),
        ]))
        #expect(refusal { try build("collision", [], [("boundary", "floor:0,600")]) }?.hasPrefix("'floor:0,600': expected --boundary ID:x1,y1,x2,y2") == true)
    }

    @Test func attachmentAndSnapNameOneItemAndWhatTheyHangFrom() throws {
        #expect(try build("attachment", ["i0"], [("anchor", "100,0"), ("frequency", "1.5"), ("damping", "0.3"), ("range", "-10,10")]) == [
            "type": .string("attachment"), "item": .string("i0"), "anchor": numbers([100, 0]),
            "frequency": .number(1.5), "damping": .number(0.3), "attachmentRange": numbers([-10, 10])])
        #expect(try build("attachment", ["i0", "body:b"], [("kind", "sliding"), ("axis", "0,1")]) == [
            "type": .string("attachment"), "item": .string("i0"), "attachedTo": .object(["body": .string("b")]),
            "kind": .string("sliding"), "axisOfTranslation": numbers([0, 1])])
        #expect(try build("attachment", ["i0"], [("to", "body:b"), ("to-offset", "5,5")])["attachedTo"] == .object(["body": .string("b")]))
        #expect(try build("snap", ["i0"], [("to", "187.5,400")]) == [
            "type": .string("snap"), "item": .string("i0"), "snapPoint": numbers([187.5, 400])])
        #expect(refusal { try build("snap", ["i0", "i1"]) } == "snap: expected one element (snap ELEMENT --to X,Y)")
        #expect(refusal { try build("snap", ["i0"], [("to", "i1")]) } == "'i1': expected X,Y, e.g. 0,1")
        #expect(refusal { try build("attachment", []) }?.hasPrefix("attachment: expected one element") == true)
    }

    @Test func anOptionOfAnotherTypeIsRefusedByName() {
        #expect(refusal { try build("gravity", ["i0"], [("anchor", "1,2")]) } == "--anchor applies to attachment behaviours, not gravity")
        #expect(refusal { try build("snap", ["i0"], [("direction", "1,2")]) } == "--direction applies to gravity and push and field behaviours, not snap")
        #expect(refusal { try build("gravity", ["i0"], [("magnitude", "strong")]) } == "--magnitude 'strong': expected a number")
        #expect(refusal { try build("spring", ["i0"]) }?.hasPrefix("behaviour type 'spring': expected gravity, collision") == true)
        #expect(refusal { try build("field", ["i0"], [("region", "square:3")]) }?.hasPrefix("'square:3': expected a region") == true)
    }

    @Test func mergeAndSetReachEveryKeyAndWinOverOptions() throws {
        let b = try build("field", ["i0"], [("strength", "1")],
                          merges: [#"{"strength": 5, "region": {"union": [{"shape": "infinite"}]}}"#],
                          sets: ["seed=7", "kind=noise", "position=[1,2]", "strength=9"])
        #expect(b["strength"] == .number(9))
        #expect(b["seed"] == .number(7))
        #expect(b["kind"] == .string("noise"))   // not JSON, so a string
        #expect(b["position"] == numbers([1, 2]))
        #expect(b["region"] == .object(["union": .array([.object(["shape": .string("infinite")])])]))
        #expect(try build("composite", [], merges: [#"{"children": []}"#]) == ["type": .string("composite"), "children": .array([])])
        #expect(refusal { try build("gravity", [], merges: ["[1]"]) }?.hasPrefix("--merge '[1]': expected a JSON object") == true)
        #expect(refusal { try build("gravity", [], merges: ["{"]) }?.hasPrefix("--merge '{': not JSON") == true)
        #expect(refusal { try build("gravity", [], sets: ["=1"]) }?.hasPrefix("--set '=1': expected KEY=VALUE") == true)
    }

    @Test func anUpdateSendsKeysWithoutTheType() throws {
        #expect(try build("push", ["i1"], [("active", "false")], sets: ["type=gravity"], update: true) == [
            "items": .array([.string("i1")]), "active": .bool(false)])
        #expect(refusal { try build("snap", ["i1"], update: true) }?.hasPrefix("snap: the elements of a behaviour that exists cannot change") == true)
        // Before the type is known, a value must fit some type's shape for its option.
        var b = BehaviorBuilder(type: "composite")
        b.options = [(name: "to", value: "body:b"), (name: "to", value: "3,4"), (name: "magnitude", value: "2")]
        #expect(throws: Never.self) { try b.shapesChecked() }
        b.options = [(name: "magnitude", value: "x")]
        #expect(refusal { try b.shapesChecked() } == "--magnitude 'x': expected a number")
        b.options = []
        b.elements = ["body:"]
        #expect(refusal { try b.shapesChecked() } == "'body:': expected body:NAME")
    }

    // MARK: Expectations

    @Test func dynamicKeysReadTheAnimator() throws {
        #expect(try expectation("drop item:i0 center=187.5,617 velocity=0,0 angle=0 tolerance=0.5") == .dynamicState(
            session: "drop", element: .item("i0"), checks: [.center(Point(187.5, 617)), .velocity(Point(0, 0)), .angle(.equal, 0)], tolerance: 0.5))
        #expect(try expectation("drop body:card center=10,20 speed<1 dynamic=true") == .dynamicState(
            session: "drop", element: .body("card"), checks: [.center(Point(10, 20)), .speed(.less, 1), .dynamic(true)],
            tolerance: ScriptExpectation.defaultTolerance))
        #expect(try expectation("drop 0:0 angularVelocity>=0") == .dynamicState(
            session: "drop", element: .cell(IndexPath(0, 0)), checks: [.angularVelocity(.greaterOrEqual, 0)],
            tolerance: ScriptExpectation.defaultTolerance))
        // Without a key only the animator knows, an item's centre is the layout's (as before).
        #expect(try expectation("drop item:i0 center=1,2") == .attributes(
            session: "drop", element: .item("i0"), source: .model, checks: [.center(Point(1, 2))], tolerance: ScriptExpectation.defaultTolerance))
        #expect(try expectation("drop scene body:card alpha=1") == .attributes(
            session: "drop", element: .body("card"), source: .presentation, checks: [.alpha(.equal, 1)], tolerance: ScriptExpectation.defaultTolerance))
        #expect(try expectation("drop dynamics running==false behaviors==2") == .dynamics(
            session: "drop", checks: [StatCheck(path: ["running"], comparison: .equal, value: 0), StatCheck(path: ["behaviors"], comparison: .equal, value: 2)]))
        #expect(refusal { try expectation("drop item:i0 frame=0,0,1,1 velocity=0,0") }?.hasPrefix("'frame': a line that reads the animator") == true)
        #expect(refusal { try expectation("drop header:0 velocity=0,0") } == "expect … header:0: only items and bodies are dynamic")
        #expect(refusal { try expectation("drop item:i0 velocity>0,0") } == "'velocity>0,0': velocity is compared with = only")
        #expect(refusal { try expectation("drop dynamics") }?.hasPrefix("expect … dynamics: nothing to check") == true)
        #expect(refusal { try expectation("drop dynamics paused==true") }?.hasPrefix("'paused==true': expected running==") == true)
    }

    @Test func dynamicStateIsComparedWithinTheTolerance() throws {
        let stub = StubCaller()
        stub.results["dynamics.item"] = .object([
            "element": .string("i0"), "dynamic": .bool(true), "center": numbers([187.5, 616.8]), "size": numbers([100, 100]),
            "angle": .number(0.0004), "velocity": numbers([3, -4]), "angularVelocity": .number(0)])
        let check = ExpectationCheck(caller: stub, scriptPath: "s.trellis")
        #expect(check.evaluate(try expectation("drop item:i0 center=187.5,617 size=100x100 tolerance=0.5 speed<=5 dynamic=true")).passed)
        #expect(stub.calls.last?.0 == "dynamics.item")
        #expect(stub.calls.last?.1["element"] == .string("i0"))
        // Default tolerance: the wire's 1/1000.
        #expect(check.evaluate(try expectation("drop item:i0 angle=0 velocity=3,-4 angularVelocity=0")).passed)
        #expect(check.evaluate(try expectation("drop item:i0 center=187.5,617 speed<5")) == CheckResult(
            passed: false, expected: "center=187.5,617 speed<5", actual: "center=187.5,616.8 speed=5"))
        _ = check.evaluate(try expectation("drop body:card center=0,0"))
        #expect(stub.calls.last?.1["element"] == .object(["body": .string("card")]))
        // A cell by index path is found in the layout first, for its id.
        stub.results["query.attributes"] = .object(["attributes": .array([.object([
            "element": .object(["kind": .string("cell"), "section": .number(0), "item": .number(2), "id": .string("i2")]),
            "frame": numbers([0, 0, 1, 1])])])])
        #expect(check.evaluate(try expectation("drop 0:2 dynamic=true")).passed)
        #expect(stub.calls.last?.1["element"] == .string("i2"))
    }

    @Test func theAnimatorAsAWholeFromDynamicsList() throws {
        let stub = StubCaller()
        stub.results["dynamics.list"] = .object(["running": .bool(false), "items": .array([.string("i0")]),
                                                 "behaviors": .array([.object(["behavior": .number(1), "type": .string("gravity")])])])
        let check = ExpectationCheck(caller: stub, scriptPath: "s.trellis")
        #expect(check.evaluate(try expectation("drop dynamics running==false behaviors==1 items>=1")).passed)
        #expect(check.evaluate(try expectation("drop dynamics running==true")) == CheckResult(
            passed: false, expected: "running==true", actual: "running=false"))
    }
}
