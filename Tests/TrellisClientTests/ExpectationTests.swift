import Testing
import TrellisClient
import TrellisCore
import TrellisProtocol

/// Answers methods with canned results (or errors), and records what it was asked.
final class StubCaller: MethodCaller {
    var results: [String: JSONValue] = [:]
    var errors: [String: ClientError] = [:]
    var calls: [(String, [String: JSONValue])] = []

    func call(_ method: String, _ params: [String: JSONValue]) throws(ClientError) -> JSONValue {
        calls.append((method, params))
        if let error = errors[method] { throw error }
        return results[method] ?? .object([:])
    }
}

private func numbers(_ values: [Double]) -> JSONValue { .array(values.map { .number($0) }) }

private func cell(_ section: Int, _ item: Int, _ id: String, frame: [Double], alpha: Double = 1, view: Int? = nil, transform: [Double]? = nil) -> JSONValue {
    var object: [String: JSONValue] = [
        "element": .object(["kind": .string("cell"), "section": .number(Double(section)), "item": .number(Double(item)), "id": .string(id)]),
        "frame": numbers(frame), "alpha": .number(alpha), "zIndex": .number(0), "hidden": .bool(false),
    ]
    if let view { object["view"] = .number(Double(view)) }
    if let transform { object["transform"] = numbers(transform) }
    return .object(object)
}

/// Swift Testing has an `Expectation` of its own.
private typealias ScriptExpectation = TrellisClient.Expectation

private func expectation(_ line: String) throws -> ScriptExpectation {
    try ExpectationSyntax.parse(try ScriptTokenizer.words(line))
}

@Suite struct ExpectationTests {
    // MARK: Syntax

    @Test func modelAndPresentationAttributes() throws {
        #expect(try expectation("demo 0:3 frame=0,110,100,100 alpha=1 tolerance=0.5") == .attributes(
            session: "demo", element: .cell(IndexPath(0, 3)), source: .model,
            checks: [.frame(Rect(0, 110, 100, 100)), .alpha(.equal, 1)], tolerance: 0.5))
        #expect(try expectation("demo scene item:n0 alpha<0.5 hidden=false") == .attributes(
            session: "demo", element: .item("n0"), source: .presentation,
            checks: [.alpha(.less, 0.5), .hidden(false)], tolerance: ScriptExpectation.defaultTolerance))
        #expect(try expectation("demo header:1 size=375x40 zIndex>=0") == .attributes(
            session: "demo", element: .supplementary(kind: "header", section: 1), source: .model,
            checks: [.size(Size(375, 40)), .zIndex(.greaterOrEqual, 0)], tolerance: ScriptExpectation.defaultTolerance))
        #expect(try expectation("demo 0:0 transform=identity id=a center=1,2") == .attributes(
            session: "demo", element: .cell(IndexPath(0, 0)), source: .model,
            checks: [.transform([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]), .id("a"), .center(Point(1, 2))],
            tolerance: ScriptExpectation.defaultTolerance))
    }

    @Test func itemSupplementaryViewsByKindAndIndexPath() throws {
        #expect(try expectation("demo badge:0:3 frame=1,2,20,20") == .attributes(
            session: "demo", element: .itemSupplementary(kind: "badge", path: IndexPath(0, 3)), source: .model,
            checks: [.frame(Rect(1, 2, 20, 20))], tolerance: ScriptExpectation.defaultTolerance))
        #expect(try expectation("demo scene sectionTitle:2 absent") == .attributes(
            session: "demo", element: .supplementary(kind: "sectionTitle", section: 2), source: .presentation,
            checks: [.absent], tolerance: ScriptExpectation.defaultTolerance))
        for bad in ["demo badge:0:x frame=1,2,3,4", "demo badge:0:1:2 frame=1,2,3,4", "demo badge:-1:0 frame=1,2,3,4"] {
            #expect(throws: SyntaxError.self, "\(bad)") { try expectation(bad) }
        }
        // Matched by kind, section and item: the second badge, not the first or the header.
        let stub = StubCaller()
        func badge(_ item: Int, x: Double) -> JSONValue {
            .object(["element": .object(["kind": .string("supplementary"), "section": .number(0), "item": .number(Double(item)), "elementKind": .string("badge")]),
                     "frame": .array([x, 0, 20, 20].map { .number($0) })])
        }
        let header: JSONValue = .object(["element": .object(["kind": .string("supplementary"), "section": .number(0), "item": .number(0), "elementKind": .string("header")]),
                                         "frame": .array([0, 0, 375, 30].map { .number($0) })])
        stub.results["query.attributes"] = .object(["attributes": .array([header, badge(0, x: 80), badge(1, x: 160)])])
        let check = ExpectationCheck(caller: stub, scriptPath: "/tmp/x.trellis")
        #expect(check.evaluate(try expectation("demo badge:0:1 frame=160,0,20,20")).passed)
        #expect(check.evaluate(try expectation("demo badge:0:0 frame=80,0,20,20")).passed)
        #expect(check.evaluate(try expectation("demo badge:0:2 absent")).passed)
    }

    @Test func sceneValuesStatsAndFiles() throws {
        #expect(try expectation("demo visible=12 pool.cell.created<=20 animating==false time=0.3s") == .session(
            session: "demo", scene: [.visible(.equal, 12), .time(.equal, 300)],
            stats: [StatCheck(path: ["pool", "cell", "created"], comparison: .lessOrEqual, value: 20),
                    StatCheck(path: ["animating"], comparison: .equal, value: 0)],
            tolerance: ScriptExpectation.defaultTolerance))
        #expect(try expectation("demo scene == out/scene.json tolerance=0.01") == .sceneFile(session: "demo", path: "out/scene.json", tolerance: 0.01))
    }

    @Test func operatorsSplitAtTheFirstOperator() {
        #expect(Comparison.split("pool.cell.created<=20")! == ("pool.cell.created", .lessOrEqual, "20"))
        #expect(Comparison.split("a=1")! == ("a", .equal, "1"))
        #expect(Comparison.split("a==1")! == ("a", .equal, "1"))
        #expect(Comparison.split("a!=1")! == ("a", .notEqual, "1"))
        #expect(Comparison.split("a>1")! == ("a", .greater, "1"))
        #expect(Comparison.split("a>=1")! == ("a", .greaterOrEqual, "1"))
        #expect(Comparison.split("a<1")! == ("a", .less, "1"))
        #expect(Comparison.split("plain") == nil)
        #expect(Comparison.split("a!1") == nil)
        #expect(Comparison.lessOrEqual.holds(20, 20) && !Comparison.less.holds(20, 20))
        #expect(Comparison.equal.holds(1.0004, 1, tolerance: 0.001) && !Comparison.equal.holds(1.01, 1, tolerance: 0.001))
        #expect(Comparison.notEqual.holds(2, 1) && !Comparison.notEqual.holds(1, 1))
    }

    // MARK: Evaluation

    @Test func modelFramesAskQueryAttributesAtTheIndexPath() throws {
        let stub = StubCaller()
        stub.results["query.attributes"] = .object(["attributes": .array([cell(0, 3, "item3", frame: [0, 110.2, 100, 100])])])
        let check = ExpectationCheck(caller: stub, scriptPath: "s.trellis")
        #expect(check.evaluate(try expectation("demo 0:3 frame=0,110,100,100 tolerance=0.5")).passed)
        #expect(stub.calls.last?.0 == "query.attributes")
        #expect(stub.calls.last?.1["at"] == numbers([0, 3]))
        let failed = check.evaluate(try expectation("demo 0:3 frame=0,110,100,100 alpha=1"))
        #expect(failed == CheckResult(passed: false, expected: "frame=0,110,100,100 alpha=1", actual: "frame=0,110.2,100,100 alpha=1"))
    }

    @Test func presentationReadsTheSceneByItemOrIndexPath() throws {
        let stub = StubCaller()
        stub.results["query.scene"] = .object(["views": .array([
            cell(0, 0, "a", frame: [0, 0, 100, 100], alpha: 0.25, view: 1),
            cell(0, 1, "b", frame: [50, 0, 100, 100], view: 2, transform: [0.5, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]),
        ])])
        let check = ExpectationCheck(caller: stub, scriptPath: "s.trellis")
        #expect(check.evaluate(try expectation("demo scene item:a alpha<0.5 center=50,50")).passed)
        #expect(check.evaluate(try expectation("demo scene 0:1 id=b transform=0.5,0,0,0,0,0.5,0,0,0,0,1,0,0,0,0,1")).passed)
        #expect(!check.evaluate(try expectation("demo scene 0:1 transform=identity")).passed)
        #expect(check.evaluate(try expectation("demo scene item:c absent")).passed)
        #expect(check.evaluate(try expectation("demo scene item:a absent")) == CheckResult(
            passed: false, expected: "absent", actual: "present: frame=0,0,100,100 alpha=0.25"))
        #expect(check.evaluate(try expectation("demo scene item:c alpha=1")) == CheckResult(passed: false, expected: "alpha=1", actual: "absent"))
    }

    @Test func anOutOfRangeIndexPathIsAbsentInTheModel() throws {
        let stub = StubCaller()
        stub.errors["query.attributes"] = .server(code: -32006, message: "index path 0:9 is out of range", domainCode: "out_of_range", data: nil)
        let check = ExpectationCheck(caller: stub, scriptPath: "s.trellis")
        #expect(check.evaluate(try expectation("demo 0:9 absent")).passed)
        // Other errors fail the check with the server's message.
        stub.errors["query.attributes"] = .server(code: -32002, message: "no session named 'demo'", domainCode: "unknown_session", data: nil)
        #expect(check.evaluate(try expectation("demo 0:9 absent")) == CheckResult(
            passed: false, expected: "an answer from the server", actual: "error: no session named 'demo'"))
    }

    @Test func statsByDottedPathWithBooleansAsZeroAndOne() throws {
        let stub = StubCaller()
        stub.results["stats"] = .object(["animating": .bool(false), "views": .number(12),
                                         "pool": .object(["cell": .object(["created": .number(15), "reused": .number(3)])])])
        let check = ExpectationCheck(caller: stub, scriptPath: "s.trellis")
        #expect(check.evaluate(try expectation("demo pool.cell.created<=20 pool.cell.reused>0 animating==false views=12")).passed)
        #expect(check.evaluate(try expectation("demo pool.cell.created<15 pool.header.created==1")) == CheckResult(
            passed: false, expected: "pool.cell.created<15 pool.header.created==1", actual: "pool.cell.created=15 pool.header.created=(missing)"))
        #expect(stub.calls.allSatisfy { $0.0 == "stats" && $0.1["session"] == .string("demo") })
    }

    @Test func sceneValues() throws {
        let stub = StubCaller()
        stub.results["query.scene"] = .object(["time": .number(300), "contentOffset": numbers([0, 400]), "contentSize": numbers([375, 1130]),
                                               "views": .array([cell(0, 0, "a", frame: [0, 0, 1, 1])])])
        let check = ExpectationCheck(caller: stub, scriptPath: "s.trellis")
        #expect(check.evaluate(try expectation("demo visible=1 offset=0,400 contentSize=375x1130 time=300ms")).passed)
        #expect(check.evaluate(try expectation("demo visible>=2")) == CheckResult(passed: false, expected: "visible>=2", actual: "visible=1"))
    }

    // MARK: JSON comparison

    @Test func scenesCompareWithinToleranceAndNameTheFirstDifference() {
        let expected: JSONValue = .object(["time": .number(0), "views": .array([cell(0, 0, "a", frame: [0, 0, 100, 100], view: 1)])])
        let close: JSONValue = .object(["time": .number(0), "views": .array([cell(0, 0, "a", frame: [0.0004, 0, 100, 100], view: 1)])])
        #expect(JSONComparison.firstDifference(expected: expected, actual: close, tolerance: 0.001) == nil)
        let moved: JSONValue = .object(["time": .number(0), "views": .array([cell(0, 0, "a", frame: [0, 10, 100, 100], view: 1)])])
        #expect(JSONComparison.firstDifference(expected: expected, actual: moved, tolerance: 0.001)
            == JSONComparison.Difference(path: "scene.views[0].frame[1]", expected: "0", actual: "10"))
        let more: JSONValue = .object(["time": .number(0), "views": .array([cell(0, 0, "a", frame: [0, 0, 100, 100], view: 1), .null])])
        #expect(JSONComparison.firstDifference(expected: expected, actual: more, tolerance: 0.001)
            == JSONComparison.Difference(path: "scene.views.count", expected: "1", actual: "2"))
        let extraKey: JSONValue = .object(["time": .number(0), "views": .array([cell(0, 0, "a", frame: [0, 0, 100, 100], view: 1)]), "x": .bool(true)])
        #expect(JSONComparison.firstDifference(expected: expected, actual: extraKey, tolerance: 0.001)
            == JSONComparison.Difference(path: "scene.x", expected: "(missing)", actual: "true"))
        #expect(JSONComparison.firstDifference(expected: .string("a"), actual: .number(1), tolerance: 1) != nil)
    }

    // MARK: Failures and reports

    @Test func expectErrorMatchesDomainCodesNumbersAndJSONRPCNames() {
        let refused = CommandFailure(serverCode: -32001, domainCode: "invalid_update", message: "attempt to delete item 9")
        #expect(refused.matches(code: "invalid_update") && refused.matches(code: "-32001") && !refused.matches(code: "out_of_range"))
        let params = CommandFailure(serverCode: -32602, domainCode: nil, message: "unknown key")
        #expect(params.code == "invalid_params" && params.matches(code: "-32602"))
    }

    @Test func runnerTurnsCommandsAndExpectationsIntoTests() throws {
        let script = try ScriptParser().parse("""
            delete demo 0:9
            expect-error invalid_update "item 9"
            delete demo 0:1
            expect-error invalid_update
            reload demo --items 3
            expect demo visible=0
            """, file: "r.trellis")
        let stub = StubCaller()
        stub.results["query.scene"] = .object(["views": .array([])])
        let runner = ScriptRunner(caller: stub) { words in
            // The first delete is refused, the second and the reload are not... except the reload.
            switch words.joined(separator: " ") {
            case "delete demo 0:9":
                return CommandOutcome(output: ["attempt to delete item 9"], failure: CommandFailure(serverCode: -32001, domainCode: "invalid_update", message: "attempt to delete item 9"))
            case "reload demo --items 3":
                return CommandOutcome(output: ["no session"], failure: CommandFailure(serverCode: -32002, domainCode: "unknown_session", message: "no session named 'demo'"))
            default:
                return CommandOutcome(output: ["update 1: deleted 0:1"])
            }
        }
        let results = runner.run(script).results
        #expect(results.map(\.passed) == [true, false, false, true])
        #expect(results.map(\.location.line) == [2, 4, 5, 6])
        #expect(results[1].actual == "the command succeeded" && results[1].output == ["update 1: deleted 0:1"])
        #expect(results[2].name == "reload demo --items 3" && results[2].expected == "success")
        #expect(results[2].actual == "unknown_session: no session named 'demo'")
    }

    @Test func tapLinesNumberTestsAndDescribeFailuresInYAML() {
        var tap = TAPWriter()
        let pass = TestResult(location: ScriptLocation(file: "a.trellis", line: 3), name: "expect demo visible=1", passed: true, expected: "", actual: "")
        let fail = TestResult(location: ScriptLocation(file: "a.trellis", line: 7), name: "expect demo 0:1 frame=0,0,1,1 # see #2",
                              passed: false, expected: "frame=0,0,1,1", actual: "say \"no\"", output: ["line one", "line two"])
        #expect(tap.lines(for: pass) == ["ok 1 - expect demo visible=1 (a.trellis:3)"])
        #expect(tap.lines(for: fail) == [
            ##"not ok 2 - expect demo 0:1 frame=0,0,1,1 \# see \#2 (a.trellis:7)"##,
            "  ---",
            #"  at: "a.trellis:7""#,
            #"  expected: "frame=0,0,1,1""#,
            #"  actual: "say \"no\"""#,
            "  output: |",
            "    line one",
            "    line two",
            "  ...",
        ])
        #expect(tap.plan == "1..2")
    }
}
