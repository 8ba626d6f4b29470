import Testing
@testable import TrellisServer
import TrellisProtocol
import TrellisCore

/// Protocol/schema/common.json against the behaviour registry: every registered behaviour has a
/// `<type>Behavior` definition in the behaviour union whose keys are exactly the keys its
/// declaration decodes, and whose enumerated keys list the names it accepts, so the schema can
/// neither miss a key nor name one the server refuses.
@Suite struct BehaviorSchemaTests {
    @Test func everyRegisteredBehaviorIsDescribedKeyByKey() throws {
        let checker = try SchemaChecker(directory: ProtocolFiles.schema)
        let defs = checker.documents["common.json"]?["$defs"]
        let union = checker.unionReferences("behavior")
        #expect(union.count == BehaviorRegistry.all.count, "the behaviour union lists \(union.sorted()), the registry \(BehaviorRegistry.names)")
        for type in BehaviorRegistry.all {
            let name = "\(type.typeName)Behavior"
            #expect(union.contains("#/$defs/\(name)"), "the behaviour union does not list \(name)")
            guard let def = defs?[name], case .object(let properties)? = def["properties"] else {
                Issue.record("common.json has no $defs.\(name) with properties")
                continue
            }
            #expect(def["properties"]?["type"]?["const"]?.stringValue == type.typeName)
            #expect(def["additionalProperties"] == .bool(false), "\(name): unknown keys must be refused")
            let keys = Set(properties.keys).subtracting(["type"])
            #expect(keys == Set(type.keys), "\(name): schema keys \(keys.sorted()) vs declared \(type.keys.sorted())")
            for option in type.options {
                guard case .choice(let names) = option.kind else { continue }
                #expect(properties[option.key]?["enum"] == .array(names.map(JSONValue.string)), "\(name).\(option.key): expected enum \(names)")
            }
        }
    }
}
