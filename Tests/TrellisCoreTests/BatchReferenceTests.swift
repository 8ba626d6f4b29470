import Foundation
import PropertyBased
import Testing
import TrellisCore
import TrellisTestSupport

/// Property checks on batch updates: the engine's validation and application against
/// `ReferenceItemBatch` (a plain rendering of UIKit's rules for item operations: both accept
/// with the same items after, or both refuse), and the snapshot diff's round trip (the batch it
/// derives takes the old data to the new).
@Suite struct BatchReferenceTests {
    @Test func itemBatchesAgreeWithTheReference() {
        let scenarios = Gen<UInt8>.value(in: 0...255).array(of: 2...48).map { ItemBatchScenario(bytes: $0) }
        var accepted = 0
        let failures = SeededPropertyCheck.failures(count: 20_000, seed: 12, input: scenarios) { scenario in
            if ReferenceItemBatch.apply(scenario.operations, to: scenario.sections) != nil { accepted += 1 }
            return scenario.disagreement()
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        // Both outcomes are exercised, not just refusals.
        #expect(accepted > 1_000 && accepted < 19_000, "\(accepted) of 20000 accepted")
    }

    /// Every input fuzz-batch once failed on (Fuzz/Regressions/batch/, kept by `tools/fuzz`).
    @Test func fuzzRegressionsAgree() throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/Regressions/batch")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(names.contains("README"))
        for name in names.sorted() where name != "README" {
            let bytes = [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
            let problem = ItemBatchScenario(bytes: Array(bytes.prefix(512))).disagreement()
            #expect(problem == nil, "\(name): \(problem ?? "")")
        }
    }

    @Test func aSnapshotDiffTakesTheOldDataToTheNew() throws {
        // Two arrangements of up to 3 sections drawn from 40 ids (an id in two places is kept
        // in the first only, so both are valid data).
        let sections = Gen<Int>.int(in: 0...39).array(of: 0...12).array(of: 0...3)
        let pairs = zip(sections, sections)
        func data(_ ids: [[Int]]) -> CollectionData {
            var seen = Set<Int>()
            return try! CollectionData(sections: ids.enumerated().map { s, items in
                Section(id: SectionID("s\(s)"), items: items.filter { seen.insert($0).inserted }.map { Item(id: ItemID("i\($0)")) })
            })
        }
        let failures = SeededPropertyCheck.failures(count: 3_000, seed: 7, input: pairs) { old, new in
            let before = data(old), after = data(new)
            let batch = SnapshotDiff.batch(from: before, to: after)
            do {
                let result = try batch.apply(to: before)
                return result.data == after ? nil : "\(old) → \(new) gave \(result.data.sections.map { $0.items.map(\.id.rawValue) })"
            } catch {
                return "\(old) → \(new) refused: \(error)"
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }
}
