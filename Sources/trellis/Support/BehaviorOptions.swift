import ArgumentParser
import TrellisClient
import TrellisCore

/// The options of `dynamics add` and `dynamics update`: the common keys of every behaviour
/// type, named as UIKit names them (in kebab case), plus `--json` and `--set` for the rest.
/// Which key an option sets depends on the type: each behaviour declares its options in its
/// own file (`RegisteredBehavior.options`); a new one is declared here too (CLIVocabularyTests
/// checks that every declared option is).
struct BehaviorOptions: ParsableArguments {
    // Gravity, push, field.
    @Option(help: ArgumentHelp("gravity, push, field: a direction vector (gravity 0,1 = 1000 pt/s² down).", valueName: "DX,DY")) var direction: String?
    @Option(help: ArgumentHelp("gravity, push: the direction's angle in radians (clockwise, y down).", valueName: "radians")) var angle: String?
    @Option(help: "gravity, push: the magnitude (gravity 1 = 1000 pt/s²; push 1 = 100 pt/s² on a 100×100 item of density 1).") var magnitude: String?
    // Collision, push.
    @Option(help: ArgumentHelp(BehaviorBuilder.choicesHelp(option: "mode") + ".")) var mode: String?
    @Flag(help: "collision: the reference bounds are a boundary (translatesReferenceBoundsIntoBoundary).") var boundsBoundary = false
    @Option(help: ArgumentHelp("collision: insets of the bounds boundary.", valueName: "T,L,B,R")) var insets: String?
    @Option(name: .customLong("boundary"), help: ArgumentHelp("collision: a named boundary (repeats).", valueName: "ID:x1,y1,x2,y2|ID:rect:x,y,w,h|ID:ellipse:x,y,w,h"))
    var boundaries: [String] = []
    // Attachment, snap.
    @Option(help: ArgumentHelp("attachment: the anchor point it hangs from.", valueName: "X,Y")) var anchor: String?
    @Option(help: ArgumentHelp("attachment: the element it is attached to; snap: the snap point.", valueName: "ELEMENT|X,Y")) var to: String?
    @Option(help: ArgumentHelp("attachment: offset from the item's centre; push: the target offset (torque).", valueName: "DX,DY")) var offset: String?
    @Option(help: ArgumentHelp("attachment: offset from the other element's centre.", valueName: "DX,DY")) var toOffset: String?
    @Option(help: "attachment: the length (default: the distance when added).") var length: String?
    @Option(help: ArgumentHelp("attachment: the spring's frequency (0 = rigid).", valueName: "Hz")) var frequency: String?
    @Option(help: "attachment, snap: the damping ratio.") var damping: String?
    @Option(help: ArgumentHelp(BehaviorBuilder.choicesHelp(option: "kind") + ".")) var kind: String?
    @Option(help: ArgumentHelp("attachment: the sliding axis.", valueName: "DX,DY")) var axis: String?
    @Option(help: "attachment: the friction torque.") var frictionTorque: String?
    @Option(help: ArgumentHelp("attachment: the attachment range.", valueName: "MIN,MAX")) var range: String?
    @Option(help: "push: true or false (active).") var active: String?
    // Item properties.
    @Option(help: "item: density (1).") var density: String?
    @Option(help: "item: elasticity (0).") var elasticity: String?
    @Option(help: "item: friction (0).") var friction: String?
    @Option(help: "item: resistance (0).") var resistance: String?
    @Option(help: "item: angular resistance (0).") var angularResistance: String?
    @Option(help: "item: charge (0).") var charge: String?
    @Flag(help: "item: allowsRotation false.") var noRotation = false
    @Flag(help: "item: anchored.") var anchored = false
    @Option(help: ArgumentHelp("item: add a linear velocity once (pt/s).", valueName: "DX,DY")) var velocity: String?
    @Option(help: ArgumentHelp("item: add an angular velocity once.", valueName: "rad/s")) var angularVelocity: String?
    // Fields.
    @Option(help: ArgumentHelp("field: its position.", valueName: "X,Y")) var position: String?
    @Option(help: ArgumentHelp("field: infinite, rect:W,H, ellipse:W,H, circle:R (inverse:… inverts).", valueName: "region")) var region: String?
    @Option(help: "field: strength (1).") var strength: String?
    @Option(help: "field: falloff (0).") var falloff: String?
    @Option(help: "field: minimum radius.") var minRadius: String?
    @Option(help: "field: smoothness.") var smoothness: String?
    @Option(help: "field: animation speed.") var speed: String?
    @Option(help: "field: the noise seed.") var seed: String?
    // Anything else.
    // Not --json, which every command takes already (print the raw result).
    @Option(name: .customLong("merge"), help: ArgumentHelp("A JSON object merged into the behaviour (repeats; wins over the options above).", valueName: "json"))
    var merge: [String] = []
    @Option(name: .customLong("set"), help: ArgumentHelp("KEY=VALUE, VALUE read as JSON, else as a string (repeats; applied last).", valueName: "key=value"))
    var sets: [String] = []

    /// A builder for `type` with these options and `elements`.
    func builder(type: String, elements: [String], update: Bool) -> BehaviorBuilder {
        var b = BehaviorBuilder(type: type)
        b.elements = elements
        b.isUpdate = update
        let given: [(String, String?)] = [
            ("direction", direction), ("angle", angle), ("magnitude", magnitude), ("mode", mode),
            ("bounds-boundary", boundsBoundary ? "" : nil), ("insets", insets),
            ("anchor", anchor), ("to", to), ("offset", offset), ("to-offset", toOffset), ("length", length),
            ("frequency", frequency), ("damping", damping), ("kind", kind), ("axis", axis),
            ("friction-torque", frictionTorque), ("range", range), ("active", active),
            ("density", density), ("elasticity", elasticity), ("friction", friction), ("resistance", resistance),
            ("angular-resistance", angularResistance), ("charge", charge), ("no-rotation", noRotation ? "" : nil),
            ("anchored", anchored ? "" : nil), ("velocity", velocity), ("angular-velocity", angularVelocity),
            ("position", position), ("region", region), ("strength", strength), ("falloff", falloff),
            ("min-radius", minRadius), ("smoothness", smoothness), ("speed", speed), ("seed", seed),
        ]
        b.options = given.compactMap { name, value in value.map { (name, $0) } } + boundaries.map { ("boundary", $0) }
        b.merges = merge
        b.sets = sets
        return b
    }
}
