import TrellisDynamics

/// What changed in the debug layer between two frames: shapes new or changed (whole) and the
/// ids of shapes gone. A viewer applying a keyframe's shapes and then every delta holds the
/// server's layer (`DebugLayerState`).
public struct DebugLayerDelta: Hashable, Sendable {
    public var shapes: [DebugShape] = []
    public var removed: [DebugShapeID] = []
    public init() {}

    public var isEmpty: Bool { shapes.isEmpty && removed.isEmpty }
}

extension DebugLayerDelta: DebugLayerSink {
    public mutating func beginDebug() { shapes.removeAll(); removed.removeAll() }
    public mutating func shape(_ shape: UnsafePointer<DebugShape>) { shapes.append(shape.pointee) }
    public mutating func removed(_ id: DebugShapeID) { removed.append(id) }
}

/// The debug layer a viewer holds, by shape id, kept up to date by applying frames.
public struct DebugLayerState: Hashable, Sendable {
    public var shapes: [DebugShapeID: DebugShape] = [:]
    public init() {}

    /// The layer of a keyframe.
    public init(_ keyframe: [DebugShape]) {
        for s in keyframe { shapes[s.id] = s }
    }

    public mutating func apply(_ delta: DebugLayerDelta) {
        for id in delta.removed { shapes[id] = nil }
        for s in delta.shapes { shapes[s.id] = s }
    }

    /// The shapes in id order (the order viewers draw them in).
    public var sorted: [DebugShape] { shapes.values.sorted { $0.id < $1.id } }
}
