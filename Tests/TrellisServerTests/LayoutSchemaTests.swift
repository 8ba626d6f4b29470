import Testing
@testable import TrellisServer
import TrellisProtocol
import TrellisCore

/// Protocol/schema/common.json against the layout registry: every registered layout has a
/// `<type>Layout` definition in the layout union whose keys are exactly the layout's parameters,
/// each with the kind and range the server checks, so the schema can neither miss a key nor be
/// looser or stricter than the server.
@Suite struct LayoutSchemaTests {
    @Test func everyRegisteredLayoutIsDescribedKeyByKeyWithItsRange() throws {
        let checker = try SchemaChecker(directory: ProtocolFiles.schema)
        let defs = checker.documents["common.json"]?["$defs"]
        let union = checker.unionReferences("layout")
        for type in LayoutRegistry.all {
            let name = "\(type.typeName)Layout"
            #expect(union.contains("#/$defs/\(name)"), "the layout union does not list \(name)")
            guard let def = defs?[name], case .object(let properties)? = def["properties"] else {
                Issue.record("common.json has no $defs.\(name) with properties")
                continue
            }
            #expect(def["properties"]?["type"]?["const"]?.stringValue == type.typeName)
            #expect(def["additionalProperties"] == .bool(false), "\(name): unknown keys must be refused")
            let keys = Set(properties.keys).subtracting(["type"])
            let declared = Set(type.parameterDescriptions.map(\.name))
            #expect(keys == declared, "\(name): schema keys \(keys.sorted()) vs declared \(declared.sorted())")
            for p in type.parameterDescriptions {
                guard let schema = properties[p.name] else { continue }
                for problem in Self.problems(schema, p.kind) { Issue.record("\(name).\(p.name): \(problem)") }
            }
        }
    }

    /// How `schema` differs from what the server accepts for `kind`.
    static func problems(_ schema: JSONValue, _ kind: ParameterKind) -> [String] {
        let ref = schema["$ref"]?.stringValue
        switch kind {
        case .number(let range):
            var found: [String] = []
            if schema["type"]?.stringValue != "number" { found.append("expected type number") }
            if schema["minimum"]?.numberValue != range.lowerBound { found.append("minimum should be \(range.lowerBound)") }
            if schema["maximum"]?.numberValue != range.upperBound { found.append("maximum should be \(range.upperBound)") }
            return found
        case .bool:
            return schema["type"]?.stringValue == "boolean" ? [] : ["expected type boolean"]
        case .choice(let names):
            return schema["enum"] == .array(names.map(JSONValue.string)) ? [] : ["expected enum \(names)"]
        case .size(let range, let positive):
            let expected = positive ? "#/$defs/layoutItemSize" : "#/$defs/layoutReferenceSize"
            return ref == expected && range == 0...layoutLengthLimit ? [] : ["expected $ref \(expected)"]
        case .point(let range):
            return ref == "#/$defs/layoutPoint" && range == -layoutLengthLimit...layoutLengthLimit ? [] : ["expected $ref #/$defs/layoutPoint"]
        case .insets:
            return ref == "#/$defs/layoutInsets" ? [] : ["expected $ref #/$defs/layoutInsets"]
        case .perSection:
            return schema["type"]?.stringValue == "object" ? [] : ["expected type object"]
        case .compositionalSections:
            return ref == "#/$defs/compositionalSections" ? [] : ["expected $ref #/$defs/compositionalSections"]
        case .compositionalRule:
            return ref == "#/$defs/compositionalProvider" ? [] : ["expected $ref #/$defs/compositionalProvider"]
        case .compositionalList:
            return ref == "#/$defs/compositionalList" ? [] : ["expected $ref #/$defs/compositionalList"]
        }
    }
}
