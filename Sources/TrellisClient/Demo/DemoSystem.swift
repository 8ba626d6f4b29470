/// The five systems the demo walks through: every step shows one, and its caption (the
/// terminal's top line, the piped run's heading) starts with the system's name.
public enum DemoSystem: String, CaseIterable, Hashable, Sendable {
    case batchUpdates = "batch updates"
    case scrollPhysics = "scroll physics"
    case springy = "springy flow"
    case dynamics = "UIKit Dynamics"
    case layouts = "layouts"
}
