import Testing
import TrellisClient
import TrellisCore
import TrellisProtocol

@Suite struct CommandSyntaxTests {
    @Test func indexPathsAndInclusiveRanges() throws {
        #expect(try CommandSyntax.indexPath("0:3") == IndexPath(0, 3))
        #expect(try CommandSyntax.indexPath("12:40") == IndexPath(12, 40))
        #expect(try CommandSyntax.indexPaths("1:7") == [IndexPath(1, 7)])
        #expect(try CommandSyntax.indexPaths("0:0..3") == (0...3).map { IndexPath(0, $0) })
        #expect(try CommandSyntax.indexPaths("2:5..5") == [IndexPath(2, 5)])
        for bad in ["", "0", "0:", ":1", "0:-1", "a:1", "0:1:2", "0:1.5", " 0:1"] {
            #expect(throws: SyntaxError.self) { try CommandSyntax.indexPath(bad) }
        }
        for bad in ["0:5..3", "0:0..", "0:0..x", "0..3"] {
            #expect(throws: SyntaxError.self) { try CommandSyntax.indexPaths(bad) }
        }
    }

    @Test func sizesPointsRectsAndInsets() throws {
        #expect(try CommandSyntax.size("375x812") == Size(375, 812))
        #expect(try CommandSyntax.size("100X50.5") == Size(100, 50.5))
        #expect(try CommandSyntax.size("10,20") == Size(10, 20))
        for bad in ["375", "0x10", "10x-1", "axb", "10x10x10"] {
            #expect(throws: SyntaxError.self) { try CommandSyntax.size(bad) }
        }
        #expect(try CommandSyntax.point("120,300") == Point(120, 300))
        #expect(try CommandSyntax.point("-5,0.5") == Point(-5, 0.5))
        #expect(throws: SyntaxError.self) { try CommandSyntax.point("120") }
        #expect(try CommandSyntax.rect("0,10,375,812") == Rect(0, 10, 375, 812))
        #expect(throws: SyntaxError.self) { try CommandSyntax.rect("0,0,-1,5") }
        #expect(try CommandSyntax.insets("10") == EdgeInsets(all: 10))
        #expect(try CommandSyntax.insets("1,2,3,4") == EdgeInsets(top: 1, left: 2, bottom: 3, right: 4))
    }

    @Test func durations() throws {
        #expect(try CommandSyntax.milliseconds("16ms") == 16)
        #expect(try CommandSyntax.milliseconds("0.5s") == 500)
        #expect(try CommandSyntax.milliseconds("2s") == 2000)
        #expect(try CommandSyntax.milliseconds("33") == 33)
        #expect(try CommandSyntax.seconds("0.3") == 0.3)
        #expect(try CommandSyntax.seconds("300ms") == 0.3)
        #expect(try CommandSyntax.seconds("1s") == 1)
        for bad in ["", "ms", "-1ms", "fast", "1m"] {
            #expect(throws: SyntaxError.self) { try CommandSyntax.milliseconds(bad) }
        }
    }

    @Test func movesInsertionsAndSections() throws {
        let move = try CommandSyntax.move("0:5:0:7")
        #expect(move.from == IndexPath(0, 5) && move.to == IndexPath(0, 7))
        let arrow = try CommandSyntax.move("1:2>0:0")
        #expect(arrow.from == IndexPath(1, 2) && arrow.to == IndexPath(0, 0))
        #expect(throws: SyntaxError.self) { try CommandSyntax.move("0:5:0") }
        let named = try CommandSyntax.insertion("0:0=id1")
        #expect(named.paths == [IndexPath(0, 0)] && named.id == "id1")
        let range = try CommandSyntax.insertion("0:2..4")
        #expect(range.paths.count == 3 && range.id == nil)
        #expect(throws: SyntaxError.self) { try CommandSyntax.insertion("0:0=") }
        #expect(try CommandSyntax.section("2").index == 2)
        #expect(try CommandSyntax.section("1=s9").id == "s9")
        #expect(try CommandSyntax.sectionMove("1:0") == (1, 0))
        #expect(try CommandSyntax.counts("10,5") == [10, 5])
        #expect(throws: SyntaxError.self) { try CommandSyntax.counts("10,x") }
    }

    @Test func batchBuilderMakesOneOperationPerKindWithGeneratedIDs() throws {
        var b = BatchBuilder(idPrefix: "x")
        try b.delete("0:3")
        try b.insert("0:0..1")
        try b.insert("0:5=named")
        try b.move("0:5:0:7")
        try b.insertSection("1")
        let ops = try b.operations()
        #expect(ops.map { $0["op"]?.stringValue } == ["deleteItems", "moveItem", "insertSections", "insertItems"])
        #expect(ops[3]["items"] == .array([GeneratedData.item("x0"), GeneratedData.item("x1"), GeneratedData.item("named")]))
        #expect(ops[3]["at"] == .array([.array([0, 0].map { .number($0) }), .array([0, 1].map { .number($0) }), .array([0, 5].map { .number($0) })]))
        #expect(ops[2]["sections"] == .array([.object(["id": .string("xs0"), "items": .array([])])]))
    }

    @Test func generatedDataAndFileForms() throws {
        let sections = GeneratedData.sections(counts: [2, 1])
        #expect(sections == .array([
            .object(["id": .string("s0"), "items": .array([
                .object(["id": .string("item0"), "data": .object(["label": .string("#0")])]),
                .object(["id": .string("item1"), "data": .object(["label": .string("#1")])]),
            ])]),
            .object(["id": .string("s1"), "items": .array([.object(["id": .string("item2"), "data": .object(["label": .string("#2")])])])]),
        ]))
        let ids: JSONValue = .array([.string("a"), .string("b")])
        #expect(try GeneratedData.sections(fromFile: ids) == .array([.object(["id": .string("s0"), "items": .array([
            .object(["id": .string("a")]), .object(["id": .string("b")]),
        ])])]))
        #expect(try GeneratedData.sections(fromFile: .object(["sections": sections])) == sections)
        #expect(try GeneratedData.sections(fromFile: sections) == sections)
        #expect(throws: SyntaxError.self) { try GeneratedData.sections(fromFile: .string("x")) }
        #expect(GeneratedData.idPrefix("p-") == "p-")
        #expect(GeneratedData.idPrefix(nil) != GeneratedData.idPrefix(nil))
    }
}
