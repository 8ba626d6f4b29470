import TrellisCore
import TrellisDynamics
import TrellisGeometry

/// `{"type": "attachment", "item", "anchor" | "attachedTo", …}` (UIAttachmentBehavior): a
/// spring, sliding, limit, fixed or pin attachment to a point or to another element.
extension AttachmentBehavior: RegisteredBehavior {
    public static let typeName = "attachment"
    public static let keys = ["item", "offsetFromCenter", "anchor", "attachedTo", "attachedOffsetFromCenter", "length", "frequency", "damping",
                              "kind", "axisOfTranslation", "frictionTorque", "attachmentRange", "attachmentAnchor"]
    public static let options: [BehaviorOption] = [
        BehaviorOption("anchor", "anchor", .point), BehaviorOption("to", "attachedTo", .element),
        BehaviorOption("offset", "offsetFromCenter", .vector), BehaviorOption("to-offset", "attachedOffsetFromCenter", .vector),
        .number("length", "length"), .number("frequency", "frequency"), .number("damping", "damping"),
        BehaviorOption("kind", "kind", .choice(BehaviorSpec.attachmentKinds)), BehaviorOption("axis", "axisOfTranslation", .vector),
        .number("friction-torque", "frictionTorque"), BehaviorOption("range", "attachmentRange", .pair),
    ]

    public static func decode(_ r: SpecReader, _ resolver: inout DynamicElementResolver) throws(BehaviorSpecError) -> AttachmentBehavior {
        let item = try BehaviorSpec.requiredItem(r, "item", &resolver)
        let offset: Vector
        do throws(ParamError) { offset = try r.vector("offsetFromCenter", BehaviorSpec.vector) ?? .zero } catch { throw .params(error) }
        var b: AttachmentBehavior
        if r.has("attachedTo") {
            if r.has("anchor") {
                throw .params(ParamError(path: r.path, .mismatch(expected: "either anchor (a point) or attachedTo (an element)", found: "both")))
            }
            let other = try BehaviorSpec.requiredItem(r, "attachedTo", &resolver)
            let otherOffset: Vector
            do throws(ParamError) { otherOffset = try r.vector("attachedOffsetFromCenter", BehaviorSpec.vector) ?? .zero } catch { throw .params(error) }
            b = AttachmentBehavior(item: item, offset: offset, anchor: .item(other, offset: otherOffset))
        } else {
            if r.has("attachedOffsetFromCenter") {
                throw .params(ParamError(path: "\(r.path).attachedOffsetFromCenter", .mismatch(expected: "no offset on the anchor side (only with attachedTo, an element)", found: "an offset with an anchor point")))
            }
            let point: Point?
            do throws(ParamError) { point = try r.point("anchor", BehaviorSpec.coordinate) } catch { throw .params(error) }
            guard let point else {
                throw .params(ParamError(path: "\(r.path).anchor", .missing(expected: "an anchor point [x, y], or attachedTo: an element")))
            }
            b = AttachmentBehavior(item: item, offset: offset, anchor: .point(point))
        }
        do throws(ParamError) { return try springSettings(b, r) } catch { throw .params(error) }
    }

    private static func springSettings(_ b: AttachmentBehavior, _ r: SpecReader) throws(ParamError) -> AttachmentBehavior {
        var b = b
        if r.has("length") { b.length = try r.requireNumber("length", BehaviorSpec.length) }
        b.frequency = try r.number("frequency", BehaviorSpec.frequency, default: 0)
        b.damping = try r.number("damping", BehaviorSpec.damping, default: 0)
        switch try r.choice("kind", BehaviorSpec.attachmentKinds, default: "spring") {
        case "sliding":
            guard let axis = try r.vector("axisOfTranslation", BehaviorSpec.vector) else {
                throw ParamError(path: "\(r.path).axisOfTranslation", .missing(expected: "a unit vector [dx, dy]: the axis a sliding attachment moves along"))
            }
            b.kind = .sliding(axis: axis)
        case let other:
            if r.has("axisOfTranslation") {
                throw ParamError(path: "\(r.path).axisOfTranslation", .mismatch(expected: "no axis (only a \"sliding\" attachment has one)", found: "an axis on a \"\(other)\" attachment"))
            }
            b.kind = other == "limit" ? .limit : other == "fixed" ? .fixed : other == "pin" ? .pin : .spring
        }
        b.frictionTorque = try r.number("frictionTorque", BehaviorSpec.material, default: 0)
        if let range = try r.numbers("attachmentRange", ["minimum", "maximum"], BehaviorSpec.coordinate) {
            b.attachmentRange = FloatRange(minimum: range[0], maximum: range[1])
        }
        b.attachmentAnchor = try r.point("attachmentAnchor", BehaviorSpec.coordinate)
        if let problem = AttachmentBehavior.validate(kind: b.kind, attachmentRange: b.attachmentRange, frictionTorque: b.frictionTorque,
                                                     length: b.length, frequency: b.frequency, damping: b.damping) {
            throw ParamError(path: r.path, .mismatch(expected: "an attachment UIKit accepts", found: problem))
        }
        return b
    }

    /// The length the animator settled when it was added (the distance then, unless given).
    public func settle(_ members: inout [String: JSONValue]) {
        if let length { members["length"] = .number(length) }
    }
}

extension BehaviorSpec {
    /// The names of an attachment's `kind`.
    public static let attachmentKinds = ["spring", "sliding", "limit", "fixed", "pin"]
}
