import ArgumentParser
import TrellisClient
import TrellisCore

/// The animation options of every command that changes what is shown: data changes (batch,
/// apply, insert, delete, move) animate unless `--no-animation`; layout changes and scrolls
/// happen at once unless `--animated` or any timing option asks. The protocol's keys are
/// `WireDecoding.timingKeys`, the same for every method.
struct AnimationOptions: ParsableArguments {
    @Flag(help: "Animate a layout change or scroll (implied by any timing option).") var animated = false
    @Flag(help: "Apply a data change at once, without animation.") var noAnimation = false

    @Option(help: ArgumentHelp("Animation duration in seconds (or 300ms; default 0.3, 0.33 for scrolls).", valueName: "seconds"))
    var duration: String?

    @Option(help: ArgumentHelp("Delay before the animation, in seconds.", valueName: "seconds"))
    var delay: String?

    @Option(help: "linear, easeIn, easeOut, easeInEaseOut or spring (default easeInEaseOut, easeOut for scrolls).")
    var curve: String?

    @Option(help: "Spring damping ratio (with --curve spring).")
    var damping: Double?

    @Option(help: "Spring initial velocity (with --curve spring).")
    var velocity: Double?

    func validate() throws {
        if animated && noAnimation { throw ValidationError("give at most one of --animated and --no-animation") }
    }

    /// The protocol's animation keys for a method that animates by default (`animatedByDefault`)
    /// or only when asked.
    func params(animatedByDefault: Bool = true) throws -> [String: JSONValue] {
        var p: [String: JSONValue] = [:]
        if noAnimation { p["animated"] = .bool(false); return p }
        if let duration { p["duration"] = .number(try parsing { () throws(SyntaxError) in try CommandSyntax.seconds(duration) }) }
        if let delay { p["delay"] = .number(try parsing { () throws(SyntaxError) in try CommandSyntax.seconds(delay) }) }
        if let curve { p["curve"] = .string(curve) }
        if let damping { p["damping"] = .number(damping) }
        if let velocity { p["velocity"] = .number(velocity) }
        if !animatedByDefault && (animated || !p.isEmpty) { p["animated"] = .bool(true) }
        return p
    }
}
