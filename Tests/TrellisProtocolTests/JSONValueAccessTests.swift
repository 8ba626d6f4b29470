import Testing
import TrellisCore

@testable import TrellisProtocol

@Suite("JSONValue params access")
struct JSONValueAccessTests {
    private let params: JSONValue = .object([
        "x": .number(1.5),
        "count": .number(3),
        "name": .string("grid"),
        "animated": .bool(true),
        "bounds": .array([.number(320), .number(480)]),
        "tags": .array([.string("a")]),
        "layout": .object(["kind": .string("flow"), "spacing": .number(8)]),
        "nothing": .null,
        "text": .string("wide"),
    ])

    /// The ParamError message `body` fails with, or nil when it succeeds. (Closures do not
    /// infer typed throws, so the error arrives as `any Error`.)
    private func failure(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as ParamError {
            return error.message
        } catch {
            return "unexpected error \(error)"
        }
    }

    @Test func requiredValuesOfTheRightKind() throws {
        #expect(try params.requireNumber("x") == 1.5)
        #expect(try params.requireInt("count") == 3)
        #expect(try params.requireString("name") == "grid")
        #expect(try params.requireBool("animated"))
        #expect(try params.requireArray("tags") == [.string("a")])
        #expect(try params.requireNumbers("bounds", count: 2, labels: ["width", "height"]) == [320, 480])
        let layout = try params.requireObject("layout")
        #expect(try layout.requireNumber("spacing", in: "params.layout") == 8)
        #expect(params.field("nothing") == .null)
        #expect(params.field("absent") == nil)
        #expect(JSONValue.number(1).field("x") == nil)
    }

    @Test func optionalValues() throws {
        #expect(try params.optionalNumber("x") == 1.5)
        #expect(try params.optionalNumber("absent") == nil)
        #expect(try params.optionalNumber("nothing") == nil)  // null counts as absent
        #expect(try params.optionalBool("animated") == true)
        #expect(try params.optionalBool("absent") == nil)
        #expect(try params.optionalInt("count") == 3)
        #expect(try params.optionalString("name") == "grid")
        #expect(try params.optionalArray("tags")?.count == 1)
        #expect(try params.optionalObject("layout") != nil)
        #expect(try params.optionalNumbers("bounds", count: 2) == [320, 480])
        #expect(try params.optionalNumbers("absent", count: 2) == nil)
    }

    @Test func messagesNameThePathAndWhatWasFound() {
        #expect(
            failure { _ = try params.requireNumbers("text", count: 2, labels: ["width", "height"]) }
                == "params.text: expected an array of 2 numbers [width, height], found a string")
        #expect(
            failure { _ = try params.requireNumbers("tags", count: 2, labels: ["width", "height"]) }
                == "params.tags: expected an array of 2 numbers [width, height], found an array of 1 element")
        #expect(
            failure { _ = try JSONValue.object(["bounds": .array([.number(1), .string("2")])]).requireNumbers("bounds", count: 2) }
                == "params.bounds[1]: expected a number, found a string")
        #expect(failure { _ = try params.requireNumber("name") } == "params.name: expected a number, found a string")
        #expect(failure { _ = try params.requireNumber("absent") } == "params.absent: missing, expected a number")
        #expect(failure { _ = try params.requireString("nothing") } == "params.nothing: missing, expected a string")
        #expect(failure { _ = try params.requireInt("x") } == "params.x: expected an integer, found a number (1.5)")
        #expect(failure { _ = try params.requireBool("count") } == "params.count: expected true or false, found a number (3)")
        #expect(failure { _ = try params.requireArray("layout") } == "params.layout: expected an array, found an object")
        #expect(failure { _ = try params.requireObject("bounds") } == "params.bounds: expected an object, found an array of 2 elements")
        #expect(failure { _ = try params.optionalString("animated") } == "params.animated: expected a string, found a boolean (true)")
        #expect(
            failure { _ = try JSONValue.string("x").requireNumber("a") } == "params: expected an object, found a string")
        let layout = params.field("layout")!
        #expect(
            failure { _ = try layout.requireString("spacing", in: "params.layout") }
                == "params.layout.spacing: expected a string, found a number (8)")
    }

    @Test func intRange() throws {
        let big: JSONValue = .object(["a": .number(9.3e18), "b": .number(-9.223372036854775808e18), "c": .number(1e300)])
        #expect(failure { _ = try big.requireInt("a") } != nil)
        #expect(failure { _ = try big.requireInt("c") } == "params.c: expected an integer, found a number (1e+300)")
        #expect(try big.requireInt("b") == Int.min)
    }

    @Test func unknownKeys() {
        let layout: JSONValue = .object(["kind": .string("flow"), "fo": .number(1)])
        #expect(
            failure { try layout.rejectUnknownKeys(allowed: ["kind", "foo", "spacing"], path: "params.layout") }
                == "unknown key 'fo' in params.layout (did you mean 'foo'?); known keys: foo, kind, spacing")
        #expect(
            failure { try layout.rejectUnknownKeys(allowed: ["kind", "direction"], path: "params.layout") }
                == "unknown key 'fo' in params.layout; known keys: direction, kind")
        #expect(
            failure { try JSONValue.object(["x": .null]).rejectUnknownKeys(allowed: [], path: "params") }
                == "unknown key 'x' in params; it takes no keys")
        #expect(failure { try layout.rejectUnknownKeys(allowed: ["kind", "fo"], path: "params.layout") } == nil)
        #expect(
            failure { try JSONValue.array([]).rejectUnknownKeys(allowed: ["a"], path: "params") }
                == "params: expected an object, found an array of 0 elements")
    }

    @Test func errorKindsAreMachineReadable() {
        do throws(ParamError) {
            _ = try params.requireNumber("absent")
        } catch {
            #expect(error.path == "params.absent")
            #expect(error.kind == .missing(expected: "a number"))
            #expect(error.description == error.message)
        }
    }
}
