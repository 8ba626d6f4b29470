/// UIPanGestureRecognizer's states as the engine takes them.
public enum PanPhase: String, Hashable, Sendable, CaseIterable {
    case began, changed, ended, cancelled
}
