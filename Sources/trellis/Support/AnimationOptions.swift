import ArgumentParser
import TrellisClient
import TrellisCore
import TrellisProtocol

/// The animation options of a data change (batch, apply, insert, delete, move): animated, as
/// UIKit animates batch updates, unless `--no-animation`.
struct AnimationOptions: ParsableArguments {
    @Flag(help: "Apply the change at once, without animation.") var noAnimation = false
    @OptionGroup var timing: TimingOptions

    /// The protocol's animation keys.
    func params() throws -> [String: JSONValue] {
        noAnimation ? ["animated": .bool(false)] : try timing.params()
    }
}

/// The animation options of a layout change or a scroll: at once, as UIKit's calls with
/// `animated: false`, unless `--animated` or any timing option asks for an animation.
struct AnimateOnRequestOptions: ParsableArguments {
    @Flag(help: "Animate the change (implied by any timing option).") var animated = false
    @OptionGroup var timing: TimingOptions

    /// The protocol's animation keys.
    func params() throws -> [String: JSONValue] {
        var p = try timing.params()
        if animated || !p.isEmpty { p["animated"] = .bool(true) }
        return p
    }
}

/// How an animation runs, the same for every method that animates (`WireDecoding.timingKeys`).
/// The spring's options are named as such: `--velocity` is a finger's pt/s on `fling` and
/// `dynamics`, while a spring's initial velocity counts whole changes per second.
struct TimingOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Animation duration in seconds (or 300ms; default 0.3, 0.33 for scrolls).", valueName: "seconds"))
    var duration: String?

    @Option(help: ArgumentHelp("Delay before the animation, in seconds.", valueName: "seconds"))
    var delay: String?

    @Option(help: ArgumentHelp("\(Choices.list(TimingCurve.names)) (default easeInEaseOut, easeOut for scrolls)."))
    var curve: String?

    @Option(help: "With --curve spring: its damping ratio (1 is critical; default 1).")
    var springDamping: Double?

    @Option(help: ArgumentHelp("With --curve spring: its initial velocity, in whole changes per second (default 0).", valueName: "changes/s"))
    var springVelocity: Double?

    func params() throws -> [String: JSONValue] {
        var p: [String: JSONValue] = [:]
        try parsing { () throws(SyntaxError) in
            if let duration { p["duration"] = .number(try CommandSyntax.seconds(duration)) }
            if let delay { p["delay"] = .number(try CommandSyntax.seconds(delay)) }
            if let curve {
                p["curve"] = .string(try Choices.check(curve, among: TimingCurve.names + TimingCurve.otherSpellings.keys.sorted(), what: "--curve"))
            }
        }
        if let springDamping { p["damping"] = .number(springDamping) }
        if let springVelocity { p["velocity"] = .number(springVelocity) }
        return p
    }
}
