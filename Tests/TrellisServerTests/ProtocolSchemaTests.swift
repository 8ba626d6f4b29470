import Foundation
import Testing
@testable import TrellisServer
import TrellisProtocol
import TrellisCore

/// Protocol/schema against the server, both ways: every method the server knows has a schema
/// (and no schema describes a method it does not know), and every transcript replayed against a
/// live server sends params and gets results, errors and notifications that the schemas accept.
/// A request the server refused as invalid params must be refused by its schema too, so the
/// schemas cannot be looser than the server without a test noticing.
@Suite struct ProtocolSchemaTests {
    /// Server checks JSON Schema cannot state (equal lengths of two arrays); a -32602 reply
    /// whose message contains one of these is not required to fail the params schema.
    static let inexpressible = ["one item per index path", "one section per index",
                                // The compositional layout's checks across its tree (PROTOCOL.md, "Compositional").
                                "which is estimated", "the name of a section description", "leave no width", "leave no height"]
    /// The names a method schema's `errors` may list.
    static let errorNames: Set<String> = Set(RPCError.domainCodes.keys).union(["invalid_params", "internal_error"])

    @Test func schemasUseOnlyKnownKeywordsAndTheirReferencesResolve() throws {
        let checker = try SchemaChecker(directory: ProtocolFiles.schema)
        #expect(checker.documents.keys.contains("common.json"))
        for problem in checker.structuralProblems() { Issue.record("\(problem)") }
    }

    @Test func everyMethodHasASchemaAndEverySchemaAMethod() throws {
        let checker = try SchemaChecker(directory: ProtocolFiles.schema)
        let described = Set(checker.methodDocuments.keys)
        let served = Set(MethodTable.names)
        #expect(served.subtracting(described).isEmpty, "methods without a schema: \(served.subtracting(described).sorted())")
        #expect(described.subtracting(served).isEmpty, "schemas of methods the server does not know: \(described.subtracting(served).sorted())")
        for method in MethodTable.all {
            guard let document = checker.methodDocuments[method.name] else { continue }
            #expect(document["mutates"] == .bool(method.mutates), "\(method.name).json: mutates must be \(method.mutates) (read-only viewers rely on it)")
            guard case .array(let errors)? = document["errors"] else { Issue.record("\(method.name).json: no errors list"); continue }
            for error in errors {
                #expect(error.stringValue.map(Self.errorNames.contains) == true, "\(method.name).json: unknown error name \(JSONWriter.string(error))")
            }
            if method.mutates {
                #expect(errors.contains(.string("read_only")), "\(method.name).json: a mutating method can be refused read_only")
            }
        }
    }

    @Test func theErrorSchemaPairsEveryDomainCodeWithItsNumber() throws {
        let checker = try SchemaChecker(directory: ProtocolFiles.schema)
        guard case .array(let alternatives)? = checker.documents["common.json"]?["$defs"]?["error"]?["oneOf"] else {
            Issue.record("common.json has no $defs.error.oneOf")
            return
        }
        var pairs: [String: Int] = [:]
        for alternative in alternatives {
            let properties = alternative["properties"]
            if let number = properties?["code"]?["const"]?.numberValue,
               let name = properties?["data"]?["properties"]?["code"]?["const"]?.stringValue {
                pairs[name] = Int(number)
            }
        }
        #expect(pairs == RPCError.domainCodes)
    }

    @Test func everyMethodAndNotificationIsExercisedByATranscript() throws {
        let checker = try SchemaChecker(directory: ProtocolFiles.schema)
        var succeeded = Set<String>(), notified = Set<String>()
        for name in try ProtocolFiles.transcriptNames() {
            let transcript = try Transcript(named: name)
            var methodByID: [JSONValue: String] = [:]
            for step in transcript.steps {
                switch step {
                case .send(let request, _):
                    if let id = request["id"], let method = request["method"]?.stringValue { methodByID[id] = method }
                case .expect(let message, _):
                    if let method = message["method"]?.stringValue { notified.insert(method) }
                    if message["result"] != nil, let id = message["id"], let method = methodByID[id] { succeeded.insert(method) }
                case .sendRaw: break
                }
            }
        }
        let methods = Set(checker.methodDocuments.keys), notifications = Set(checker.notificationDocuments.keys)
        #expect(methods.subtracting(succeeded).isEmpty, "methods no transcript calls successfully: \(methods.subtracting(succeeded).sorted())")
        let silent = notifications.subtracting(notified).subtracting(Self.unreachableByValidInput.keys)
        #expect(silent.isEmpty, "notifications no transcript shows: \(silent.sorted())")
    }

    /// Notifications no valid request can cause (so no transcript can show one), each with an
    /// event that makes it: checked against its schema here instead.
    static let unreachableByValidInput: [String: EngineEvent] = [
        // The invariant's guard: inputs are range-checked so that no behaviour makes an item's
        // state non-finite; the stop is for what validation missed.
        "dynamics.stopped": .dynamicsStopped(behavior: 3, reason: "its forces would have made an item's velocity non-finite"),
    ]

    @Test func notificationsNoRequestCanCauseStillMatchTheirSchemas() throws {
        let checker = try SchemaChecker(directory: ProtocolFiles.schema)
        for (name, event) in Self.unreachableByValidInput {
            let message = try #require(EventNotification.message(event, session: "s", time: 1.5))
            #expect(message.method == name)
            let errors = checker.validate(message.params, against: "notifications/\(name).json", pointer: "/params")
            #expect(errors.isEmpty, "\(name): \(errors)")
        }
    }

    @Test(arguments: try ProtocolFiles.transcriptNames())
    func transcriptTrafficMatchesTheSchemas(_ name: String) throws {
        let checker = try SchemaChecker(directory: ProtocolFiles.schema)
        let transcript = try Transcript(named: name)
        let replay = try TranscriptReplay(transcript)
        var requests: [JSONValue: (method: String, params: JSONValue)] = [:]
        for value in replay.sent {
            // Only requests the server can answer by id (string or number) are paired with replies.
            guard let method = value["method"]?.stringValue, let id = value["id"], id.stringValue != nil || id.numberValue != nil else { continue }
            #expect(requests[id] == nil, "\(name): the id \(JSONWriter.string(id)) is used twice; replies could not be told apart")
            requests[id] = (method, value["params"] ?? .object([:]))
        }
        var answered = Set<JSONValue>()
        for exchange in replay.exchanges {
            guard let message = exchange.received else { continue }   // the transcript test reports it
            let at = "\(name):\(exchange.line)"
            if let method = message["method"]?.stringValue {
                report(checker.validate(message, against: "common.json", pointer: "/$defs/notification"), at, "notification envelope")
                guard checker.notificationDocuments[method] != nil else {
                    Issue.record("\(at): no schema for the notification '\(method)'")
                    continue
                }
                report(checker.validate(message["params"] ?? .null, against: "notifications/\(method).json", pointer: "/params"), at, "\(method) params")
                continue
            }
            report(checker.validate(message, against: "common.json", pointer: "/$defs/response"), at, "reply envelope")
            guard let id = message["id"], id != .null, let request = requests[id] else { continue }
            answered.insert(id)
            let method = request.method, params = request.params
            guard checker.methodDocuments[method] != nil else { continue }
            let document = "\(method).json"
            if let result = message["result"] {
                report(checker.validate(params, against: document, pointer: "/params"), at, "\(method) params (accepted by the server)")
                report(checker.validate(result, against: document, pointer: "/result"), at, "\(method) result")
            } else if message["error"]?["code"]?.numberValue == -32602 {
                let text = message["error"]?["message"]?.stringValue ?? ""
                if !Self.inexpressible.contains(where: text.contains),
                   checker.validate(params, against: document, pointer: "/params").isEmpty {
                    Issue.record("\(at): the server refused these \(method) params (\(text)) but \(document) accepts them: \(JSONWriter.string(params))")
                }
            }
        }
        if replay.exchanges.allSatisfy({ $0.received != nil }) {
            for id in Set(requests.keys).subtracting(answered) {
                Issue.record("\(name): the request with id \(JSONWriter.string(id)) (\(requests[id]!.method)) got no reply in the transcript")
            }
        }
    }

    private func report(_ errors: [String], _ at: String, _ what: String) {
        for error in errors.prefix(5) { Issue.record("\(at): \(what): \(error)") }
    }

    // The checker itself, on small schemas.

    @Test func theCheckerRefusesWhatItShould() throws {
        let schema = try JSONParser.parse(#"""
            {"$defs": {"ip": {"type": "array", "prefixItems": [{"type": "integer", "minimum": 0}, {"type": "integer", "minimum": 0}], "items": false, "minItems": 2},
                       "s": {"type": "object", "properties": {"at": {"$ref": "#/$defs/ip"}, "name": {"type": "string", "minLength": 1, "maxLength": 3, "pattern": "^[a-z]+$"},
                             "kind": {"enum": ["a", "b"]}, "n": {"type": "number", "exclusiveMinimum": 0, "maximum": 10}, "k": {"const": true},
                             "either": {"oneOf": [{"type": "string"}, {"type": "integer"}, {"type": "number", "minimum": 100}]},
                             "any": {"anyOf": [{"type": "null"}, {"type": "boolean"}]},
                             "map": {"type": "object", "patternProperties": {"^[0-9]+$": {"type": "integer"}}, "additionalProperties": false}},
                             "required": ["at"], "additionalProperties": false}}}
            """#)
        let checker = SchemaChecker(documents: ["t.json": schema])
        func errors(_ json: String) throws -> [String] { checker.validate(try JSONParser.parse(json), against: "t.json", pointer: "/$defs/s") }
        #expect(try errors(#"{"at": [0, 3], "name": "ab", "kind": "a", "n": 10, "k": true, "either": "x", "any": null, "map": {"1": 2}}"#).isEmpty)
        for bad in [#"{}"#, #"{"at": [0]}"#, #"{"at": [0, 1, 2]}"#, #"{"at": [0, -1]}"#, #"{"at": [0, 1.5]}"#, #"{"at": [0, 1], "x": 1}"#,
                    #"{"at": [0, 1], "name": ""}"#, #"{"at": [0, 1], "name": "abcd"}"#, #"{"at": [0, 1], "name": "A"}"#,
                    #"{"at": [0, 1], "kind": "c"}"#, #"{"at": [0, 1], "n": 0}"#, #"{"at": [0, 1], "n": 11}"#, #"{"at": [0, 1], "k": false}"#,
                    #"{"at": [0, 1], "either": 150}"#, #"{"at": [0, 1], "either": []}"#, #"{"at": [0, 1], "any": 1}"#,
                    #"{"at": [0, 1], "map": {"x": 1}}"#, #"{"at": [0, 1], "map": {"1": "a"}}"#, #"[]"#] {
            #expect(try !errors(bad).isEmpty, "accepted \(bad)")
        }
    }
}

/// Enough of JSON Schema draft 2020-12 for Protocol/schema: type, properties, required,
/// additionalProperties, patternProperties, items, prefixItems, minItems, maxItems, enum, const,
/// $ref (to a JSON pointer in the same or another file), oneOf, anyOf, allOf, minimum, maximum,
/// exclusiveMinimum, minLength, maxLength, pattern. Annotations (title, description, default)
/// are ignored; any other keyword is reported by `structuralProblems`, so that no keyword a
/// schema relies on is silently skipped.
struct SchemaChecker {
    /// Every schema file, by its path relative to the schema directory ("batch.json",
    /// "notifications/frame.json").
    let documents: [String: JSONValue]

    static let assertions: Set<String> = [
        "type", "properties", "required", "additionalProperties", "patternProperties", "items", "prefixItems", "minItems",
        "maxItems", "enum", "const", "$ref", "oneOf", "anyOf", "allOf", "minimum", "maximum", "exclusiveMinimum",
        "minLength", "maxLength", "pattern",
    ]
    static let annotations: Set<String> = ["$schema", "$defs", "$comment", "title", "description", "default", "examples"]
    static let methodKeys: Set<String> = ["$schema", "title", "method", "description", "mutates", "errors", "params", "result"]
    static let notificationKeys: Set<String> = ["$schema", "title", "notification", "description", "params"]

    init(documents: [String: JSONValue]) { self.documents = documents }

    init(directory: URL) throws {
        var documents: [String: JSONValue] = [:]
        guard let walker = FileManager.default.enumerator(atPath: directory.path) else { throw TestFailure("no directory \(directory.path)") }
        for case let path as String in walker where path.hasSuffix(".json") {
            documents[path] = try ProtocolFiles.parse(directory.appendingPathComponent(path))
        }
        self.documents = documents
    }

    /// Method descriptions by method name (files at the top level other than common.json).
    var methodDocuments: [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        for (path, document) in documents where !path.contains("/") && path != "common.json" {
            result[document["method"]?.stringValue ?? path] = document
        }
        return result
    }

    /// Notification descriptions by notification name (files in notifications/).
    var notificationDocuments: [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        for (path, document) in documents where path.hasPrefix("notifications/") {
            result[document["notification"]?.stringValue ?? path] = document
        }
        return result
    }

    // MARK: Validation

    /// The reasons `value` fails the schema at `pointer` in `document` (empty: it passes).
    /// The `$ref`s of the union `common.json#/$defs/<name>` (`oneOf`), as the registries'
    /// schema tests read them: "#/$defs/flowLayout", …
    func unionReferences(_ name: String) -> Set<String> {
        var union: Set<String> = []
        if case .array(let alternatives)? = documents["common.json"]?["$defs"]?[name]?["oneOf"] {
            for a in alternatives { if let ref = a["$ref"]?.stringValue { union.insert(ref) } }
        }
        return union
    }

    func validate(_ value: JSONValue, against document: String, pointer: String) -> [String] {
        var errors: [String] = []
        guard let schema = resolve(document: document, pointer: pointer) else {
            return ["no schema at \(document)#\(pointer)"]
        }
        validate(value, schema, document: document, path: "$", into: &errors)
        return errors
    }

    private func validate(_ value: JSONValue, _ schema: JSONValue, document: String, path: String, into errors: inout [String]) {
        let members: [String: JSONValue]
        switch schema {
        case .bool(true): return
        case .bool(false): errors.append("\(path): nothing is allowed here"); return
        case .object(let m): members = m
        default: errors.append("\(path): the schema is not an object or boolean"); return
        }
        if let reference = members["$ref"]?.stringValue {
            if let followed = follow(reference, from: document) {
                validate(value, followed.schema, document: followed.document, path: path, into: &errors)
            } else {
                errors.append("\(path): unresolvable $ref \(reference) in \(document)")
            }
        }
        if let type = members["type"], !Self.matches(value, type: type) {
            errors.append("\(path): \(Self.describe(value)) is not of type \(JSONWriter.string(type))")
        }
        if let constant = members["const"], !Self.equal(constant, value) {
            errors.append("\(path): \(Self.describe(value)) is not \(JSONWriter.string(constant))")
        }
        if case .array(let options)? = members["enum"], !options.contains(where: { Self.equal($0, value) }) {
            errors.append("\(path): \(Self.describe(value)) is not one of \(JSONWriter.string(.array(options)))")
        }
        if case .number(let n) = value {
            if let minimum = members["minimum"]?.numberValue, !(n >= minimum) { errors.append("\(path): \(n) is below \(minimum)") }
            if let maximum = members["maximum"]?.numberValue, !(n <= maximum) { errors.append("\(path): \(n) is above \(maximum)") }
            if let bound = members["exclusiveMinimum"]?.numberValue, !(n > bound) { errors.append("\(path): \(n) is not above \(bound)") }
        }
        if case .string(let text) = value {
            let length = text.unicodeScalars.count
            if let minimum = members["minLength"]?.numberValue, Double(length) < minimum { errors.append("\(path): shorter than \(Int(minimum))") }
            if let maximum = members["maxLength"]?.numberValue, Double(length) > maximum { errors.append("\(path): longer than \(Int(maximum))") }
            if let pattern = members["pattern"]?.stringValue, !Self.search(pattern, in: text) {
                errors.append("\(path): \"\(text)\" does not match /\(pattern)/")
            }
        }
        if case .array(let elements) = value {
            var prefix = 0
            if case .array(let schemas)? = members["prefixItems"] {
                prefix = schemas.count
                for (index, (element, itemSchema)) in zip(elements, schemas).enumerated() {
                    validate(element, itemSchema, document: document, path: "\(path)[\(index)]", into: &errors)
                }
            }
            if let itemSchema = members["items"] {
                for index in elements.indices where index >= prefix {
                    validate(elements[index], itemSchema, document: document, path: "\(path)[\(index)]", into: &errors)
                }
            }
            if let minimum = members["minItems"]?.numberValue, Double(elements.count) < minimum { errors.append("\(path): fewer than \(Int(minimum)) elements") }
            if let maximum = members["maxItems"]?.numberValue, Double(elements.count) > maximum { errors.append("\(path): more than \(Int(maximum)) elements") }
        }
        if case .object(let object) = value {
            if case .array(let required)? = members["required"] {
                for case .string(let key) in required where object[key] == nil { errors.append("\(path): missing \(key)") }
            }
            let properties: [String: JSONValue]
            if case .object(let p)? = members["properties"] { properties = p } else { properties = [:] }
            let patterns: [String: JSONValue]
            if case .object(let p)? = members["patternProperties"] { patterns = p } else { patterns = [:] }
            for key in object.keys.sorted() {
                let member = object[key]!
                var evaluated = false
                if let propertySchema = properties[key] {
                    evaluated = true
                    validate(member, propertySchema, document: document, path: "\(path).\(key)", into: &errors)
                }
                for (pattern, patternSchema) in patterns where Self.search(pattern, in: key) {
                    evaluated = true
                    validate(member, patternSchema, document: document, path: "\(path).\(key)", into: &errors)
                }
                if !evaluated, let additional = members["additionalProperties"] {
                    if additional == .bool(false) {
                        errors.append("\(path): unexpected key \(key)")
                    } else {
                        validate(member, additional, document: document, path: "\(path).\(key)", into: &errors)
                    }
                }
            }
        }
        if case .array(let schemas)? = members["allOf"] {
            for s in schemas { validate(value, s, document: document, path: path, into: &errors) }
        }
        if case .array(let schemas)? = members["anyOf"] {
            var reasons: [String] = []
            var passed = false
            for s in schemas {
                var attempt: [String] = []
                validate(value, s, document: document, path: path, into: &attempt)
                if attempt.isEmpty { passed = true; break }
                reasons.append(attempt.first!)
            }
            if !passed { errors.append("\(path): matches none of anyOf (\(reasons.joined(separator: "; ")))") }
        }
        if case .array(let schemas)? = members["oneOf"] {
            var reasons: [String] = []
            var passes = 0
            for s in schemas {
                var attempt: [String] = []
                validate(value, s, document: document, path: path, into: &attempt)
                if attempt.isEmpty { passes += 1 } else { reasons.append(attempt.first!) }
            }
            if passes == 0 { errors.append("\(path): matches none of oneOf (\(reasons.joined(separator: "; ")))") }
            if passes > 1 { errors.append("\(path): matches \(passes) alternatives of oneOf, not exactly one") }
        }
    }

    private static func matches(_ value: JSONValue, type: JSONValue) -> Bool {
        switch type {
        case .array(let names): return names.contains { matches(value, type: $0) }
        case .string(let name):
            switch (name, value) {
            case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object), ("number", .number): return true
            case ("integer", .number(let n)): return n.isFinite && n == n.rounded()
            default: return false
            }
        default: return false
        }
    }

    /// JSON equality with numbers compared as numbers.
    private static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool { a == b }

    private static func describe(_ value: JSONValue) -> String {
        let text = JSONWriter.string(value)
        return text.count > 80 ? String(text.prefix(77)) + "..." : text
    }

    /// ECMA-262-style search (unanchored unless the pattern anchors itself).
    private static func search(_ pattern: String, in text: String) -> Bool {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return false }
        return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    // MARK: References

    /// The schema a `$ref` points at, and the document it lives in.
    private func follow(_ reference: String, from document: String) -> (document: String, schema: JSONValue)? {
        let parts = reference.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let file = parts.first.map(String.init) ?? ""
        let pointer = parts.count > 1 ? String(parts[1]) : ""
        let target = file.isEmpty ? document : Self.join(document, file)
        guard let schema = resolve(document: target, pointer: pointer) else { return nil }
        return (target, schema)
    }

    /// `relative` resolved against the directory of `document` ("notifications/frame.json" +
    /// "../common.json" = "common.json").
    private static func join(_ document: String, _ relative: String) -> String {
        var components = document.split(separator: "/").map(String.init)
        components.removeLast()
        for part in relative.split(separator: "/").map(String.init) {
            if part == ".." { if !components.isEmpty { components.removeLast() } } else if part != "." { components.append(part) }
        }
        return components.joined(separator: "/")
    }

    private func resolve(document: String, pointer: String) -> JSONValue? {
        guard var node = documents[document] else { return nil }
        for token in pointer.split(separator: "/", omittingEmptySubsequences: true) {
            let key = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            switch node {
            case .object(let members):
                guard let next = members[key] else { return nil }
                node = next
            case .array(let elements):
                guard let index = Int(key), elements.indices.contains(index) else { return nil }
                node = elements[index]
            default:
                return nil
            }
        }
        return node
    }

    // MARK: Structure

    /// Unknown keywords, unresolvable references, unparsable patterns and unexpected top-level
    /// keys in every document.
    func structuralProblems() -> [String] {
        var problems: [String] = []
        for (path, document) in documents.sorted(by: { $0.key < $1.key }) {
            guard case .object(let top) = document else { problems.append("\(path): not an object"); continue }
            if path == "common.json" {
                for key in top.keys where !["$schema", "title", "description", "$defs"].contains(key) { problems.append("\(path): unexpected key \(key)") }
                if case .object(let definitions)? = top["$defs"] {
                    for (name, schema) in definitions { walk(schema, document: path, at: "#/$defs/\(name)", into: &problems) }
                } else {
                    problems.append("\(path): no $defs")
                }
                continue
            }
            let isNotification = path.hasPrefix("notifications/")
            let allowed = isNotification ? Self.notificationKeys : Self.methodKeys
            for key in top.keys where !allowed.contains(key) { problems.append("\(path): unexpected key \(key)") }
            for key in allowed where top[key] == nil && key != "$schema" { problems.append("\(path): missing \(key)") }
            if top["$schema"] != .string("https://json-schema.org/draft/2020-12/schema") { problems.append("\(path): $schema is not draft 2020-12") }
            let name = (isNotification ? top["notification"] : top["method"])?.stringValue ?? ""
            let expectedPath = (isNotification ? "notifications/" : "") + name + ".json"
            if path != expectedPath { problems.append("\(path): names '\(name)', so it should be \(expectedPath)") }
            for key in ["params", "result"] where top[key] != nil { walk(top[key]!, document: path, at: "#/\(key)", into: &problems) }
        }
        return problems
    }

    private func walk(_ schema: JSONValue, document: String, at location: String, into problems: inout [String]) {
        guard case .object(let members) = schema else {
            if case .bool = schema { return }
            problems.append("\(document)\(location): a schema must be an object or a boolean")
            return
        }
        for key in members.keys.sorted() where !Self.assertions.contains(key) && !Self.annotations.contains(key) {
            problems.append("\(document)\(location): keyword \(key) is not one the checker implements")
        }
        if let reference = members["$ref"]?.stringValue, follow(reference, from: document) == nil {
            problems.append("\(document)\(location): $ref \(reference) does not resolve")
        }
        if let pattern = members["pattern"]?.stringValue, (try? NSRegularExpression(pattern: pattern)) == nil {
            problems.append("\(document)\(location): pattern /\(pattern)/ does not compile")
        }
        for key in ["properties", "patternProperties", "$defs"] {
            if case .object(let children)? = members[key] {
                for (name, child) in children { walk(child, document: document, at: "\(location)/\(key)/\(name)", into: &problems) }
            }
        }
        for key in ["items", "additionalProperties"] {
            if let child = members[key] { walk(child, document: document, at: "\(location)/\(key)", into: &problems) }
        }
        for key in ["prefixItems", "oneOf", "anyOf", "allOf"] {
            if case .array(let children)? = members[key] {
                for (index, child) in children.enumerated() { walk(child, document: document, at: "\(location)/\(key)/\(index)", into: &problems) }
            }
        }
    }
}
