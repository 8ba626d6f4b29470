/// An item striking a boundary within a step, worked out at the moment it touches rather than at
/// the step's ends: its free motion along the normal is s(t) = s₀ + w₀·t + ½·α·t² (constant
/// acceleration α over the step, as `FreeMotion` moves it), it touches at the first root t*,
/// leaves at −e × the speed it has then, and goes on under α for the rest of the step. So a
/// dropped item touches at the surface, rebounds at exactly e times its impact speed, and its
/// bounces rise to e²ⁿ of the drop whatever the step; a stepped solver instead bounces off the
/// speed at the step's end, up to a step's gravity (17 pt/s at 60 Hz) more or less each time.
///
/// Only for an item that does not turn (a turning box's corner has no such closed form) and
/// strikes faster than the restitution threshold; the others are solved as Box2D solves them.
struct Impact: Sendable, Equatable {
    /// Where the item's centre ends along the normal (its dot product with it).
    var center: Double
    /// The normal speed it ends with.
    var speed: Double

    /// What an item's exact motion says of a contact this step.
    enum Outcome {
        /// It strikes within the step and bounces.
        case strikes(Impact)
        /// It does not strike fast enough to bounce this step (or not at all): no bounce, only
        /// the speculative limit (a bounce Box2D would give it here, off the speed at the step's
        /// end, would come before it touches).
        case noBounce
        /// No closed form (against an item, or a turning item): Box2D's bounce.
        case stepped
    }

    static func outcome(_ contact: Contact, body: DynamicBody, motion: FreeMotion, step h: Double) -> Outcome {
        guard contact.a == nil, contact.restitution > 0, body.angularVelocity == 0, motion.angularKick == 0 else { return .stepped }
        guard contact.approach < 0 else { return .noBounce }
        let n = contact.normal
        let kick = motion.kick.dot(n), alpha = kick / h
        let w0 = contact.approach - kick, s0 = contact.separation
        // The first time s(t) = 0 (written so that it does not cancel); already touching: now.
        var t = 0.0
        if s0 > 0 {
            let discriminant = w0 * w0 - 2 * alpha * s0, denominator = -w0 + max(0, discriminant).squareRoot()
            guard discriminant >= 0, denominator > 0 else { return .noBounce }
            t = 2 * s0 / denominator
        }
        guard t <= h else { return .noBounce }
        let strike = w0 + alpha * t
        guard strike < -Contact.restitutionThreshold else { return .noBounce }
        let rest = h - t, leave = -contact.restitution * strike
        let end = leave * rest + alpha * rest * rest / 2
        guard end >= 0 else { return .noBounce }
        return .strikes(Impact(center: body.center.vector(from: .zero).dot(n) + end - s0, speed: leave + alpha * rest))
    }
}
