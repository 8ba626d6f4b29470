import TrellisDynamics

/// Receives what `PublishedDebugLayer.publish` finds: shapes new or changed (whole, as a
/// changed shape is small), then the ids of shapes gone, in id order. `DebugLayerDelta` collects
/// it as values, `DebugFrameWriter` writes it as a frame's `debug` member.
public protocol DebugLayerSink {
    mutating func beginDebug()
    mutating func shape(_ shape: UnsafePointer<DebugShape>)
    mutating func removed(_ id: DebugShapeID)
}
