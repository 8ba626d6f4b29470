import Testing
import TrellisCore
import TrellisDynamics
import TrellisGeometry
@testable import TrellisProtocol

/// Behaviours on the wire: every type decodes with UIKit's names and defaults, and every
/// refusal names the key path and what was expected, before anything changes.
@Suite struct BehaviorSpecTests {
    let view = CollectionView(boundsSize: Size(400, 600), layout: FlowLayout(),
                              data: try! CollectionData(sections: [Section(id: "s", items: [Item(id: "a"), Item(id: "b")])]))

    func decode(_ json: String) throws -> any DynamicBehavior {
        var resolver = view.dynamicElementResolver()
        let value = try JSONParser.parse(Array(json.utf8))
        do throws(BehaviorSpecError) {
            return try BehaviorSpec.decode(value, path: "b", resolver: &resolver)
        } catch {
            switch error {
            case .params(let p): throw Refusal(message: p.message)
            case .engine(let e): throw Refusal(message: e.description)
            }
        }
    }

    struct Refusal: Error { var message: String }

    func refusal(_ json: String) -> String? {
        do { _ = try decode(json); return nil } catch let error as Refusal { return error.message } catch { return "\(error)" }
    }

    @Test func everyTypeDecodesWithUIKitsDefaults() throws {
        let gravity = try #require(try decode(#"{"type":"gravity","items":["a"]}"#) as? GravityBehavior)
        #expect(gravity.gravityDirection == Vector(0, 1))
        let angled = try #require(try decode(#"{"type":"gravity","items":["a"],"angle":0,"magnitude":2}"#) as? GravityBehavior)
        #expect(angled.gravityDirection == Vector(2, 0))
        let snap = try #require(try decode(#"{"type":"snap","item":"a","snapPoint":[10,20]}"#) as? SnapBehavior)
        #expect(snap.damping == 0.5 && snap.snapPoint == Point(10, 20))
        let push = try #require(try decode(#"{"type":"push","items":["a"],"mode":"instantaneous","pushDirection":[1,0]}"#) as? PushBehavior)
        #expect(push.mode == .instantaneous && push.active && push.pushDirection == Vector(1, 0))
        let item = try #require(try decode(#"{"type":"item","items":["a"],"elasticity":0.6}"#) as? ItemBehavior)
        #expect(item.properties.elasticity == 0.6 && item.properties.density == 1 && item.properties.allowsRotation)
        let attachment = try #require(try decode(#"{"type":"attachment","item":"a","attachedTo":{"item":"b"},"frequency":0.8,"damping":0.5}"#) as? AttachmentBehavior)
        #expect(attachment.frequency == 0.8 && attachment.length == nil && attachment.kind == .spring)
        let pin = try #require(try decode(#"{"type":"attachment","item":"a","anchor":[0,0],"kind":"pin","frictionTorque":2,"attachmentRange":[-1,1]}"#) as? AttachmentBehavior)
        #expect(pin.kind == .pin && pin.frictionTorque == 2 && pin.attachmentRange == FloatRange(minimum: -1, maximum: 1))
        let collision = try #require(try decode(#"{"type":"collision","items":["a","b"],"boundaries":[{"id":"o","ellipse":[0,0,100,50]},{"id":"s","from":[0,0],"to":[1,1]}]}"#) as? CollisionBehavior)
        #expect(collision.mode == .everything && collision.boundaries.map(\.identifier) == ["o", "s"])
        let field = try #require(try decode(#"{"type":"field","kind":"radialGravity","items":["a"],"position":[5,5],"region":{"difference":[{"shape":"circle","radius":100},{"inverse":{"shape":"rect","size":[10,10]}}]}}"#) as? FieldBehavior)
        #expect(field.kind == .radialGravity && field.falloff == 2 && field.strength == 1
                && field.region == .difference(.circle(radius: 100), .inverse(.rect(Size(10, 10)))))
        let composite = try #require(try decode(#"{"type":"composite","children":[{"type":"gravity","items":["a"]},{"type":"composite","children":[{"type":"snap","item":"b","snapPoint":[0,0]}]}]}"#) as? CompositeBehavior)
        #expect(composite.childBehaviors.count == 2 && composite.items.count == 2)
    }

    @Test func refusalsNameTheKeyPathAndWhatWasExpected() {
        let cases: [(String, String)] = [
            (#"{"type":"gravity","items":["zz"]}"#, "unknown item 'zz'"),
            (#"{"type":"gravity","items":[{"body":"ghost"}]}"#, "unknown body 'ghost'"),
            (#"{"type":"attachment","item":"a","anchor":[0,0],"frequency":-1}"#, "b.frequency: expected a number from 0 to 30"),
            (#"{"type":"field","items":["a"]}"#, "b.kind: missing"),
            (#"{"type":"field","kind":"wind","items":["a"]}"#, "b.kind: expected one of"),
            (#"{"type":"gravity","items":["a"],"gravityDirection":[0,1],"angle":1}"#, "either gravityDirection or angle and magnitude"),
            (#"{"type":"attachment","item":"a","anchor":[0,0],"attachedOffsetFromCenter":[1,1]}"#, "b.attachedOffsetFromCenter"),
            (#"{"type":"collision","items":["a"],"boundaries":[{"id":"x","rect":[0,0,1,1],"from":[0,0],"to":[1,1]}]}"#, "one shape"),
            (#"{"type":"collision","items":["a"],"boundaries":[{"id":"x","from":[0,0],"to":[1,1]},{"id":"x","from":[0,0],"to":[1,1]}]}"#, "not used by another boundary"),
            (#"{"type":"item","items":["a"],"density":0}"#, "b.density"),
            (#"{"type":"item","items":["a"],"elasticity":1.5}"#, "b.elasticity: expected a number from 0 to 1"),
            (#"{"type":"attachment","item":"a","anchor":[0,0],"kind":"sliding","axisOfTranslation":[1,1]}"#, "unit vector"),
            (#"{"type":"attachment","item":"a","anchor":[0,0],"kind":"sliding","axisOfTranslation":[1,0],"attachmentRange":[1,2]}"#, "include 0"),
            (#"{"type":"snap","item":"a","snapPoint":[0,0],"damping":2}"#, "b.damping"),
            (#"{"type":"gravity","items":["a"],"magnitud":1}"#, "did you mean 'magnitude'"),
            (#"{"type":"glue","items":["a"]}"#, "b.type: expected one of"),
            (#"{"type":"composite","children":[{"type":"item","items":["a"],"addLinearVelocity":[1,0]}]}"#, "top-level item behaviour only"),
            (#"{"type":"field","kind":"drag","items":["a"],"direction":[1,0]}"#, "only linearGravity and velocity"),
            (#"{"type":"push","items":["a"],"pushDirection":[1e300,0]}"#, "b.pushDirection[0]"),
            (#"{"type":"field","kind":"drag","items":["a"],"region":{"shape":"rect","size":[1,1],"radius":3}}"#, "unknown key 'radius'"),
            (#"{"type":"field","kind":"drag","items":["a"],"region":{"radius":5}}"#, "b.region.shape: missing"),
            (#"{"type":"field","kind":"drag","items":["a"],"region":{"shape":"infinite","size":"x"}}"#, "unknown key 'size'"),
            (#"{"type":"attachment","item":"a","anchor":[0,0],"kind":"fixed","axisOfTranslation":[5,5]}"#, "an axis on a \"fixed\" attachment"),
        ]
        for (json, expected) in cases {
            let message = refusal(json)
            #expect(message?.contains(expected) == true, "\(json) → \(message ?? "accepted")")
        }
    }

    @Test func compositesAndRegionsCannotNestWithoutBound() {
        var deep = #"{"type":"gravity","items":["a"]}"#
        for _ in 0..<12 { deep = #"{"type":"composite","children":["# + deep + "]}" }
        #expect(refusal(deep)?.contains("nested at most 8 deep") == true)
        var region = #"{"shape":"infinite"}"#
        for _ in 0..<20 { region = #"{"inverse":"# + region + "}" }
        #expect(refusal(#"{"type":"field","kind":"drag","items":["a"],"region":"# + region + "}")?.contains("nested at most 16 deep") == true)
    }
}
