import TrellisCore
import TrellisDynamics

/// Writes a frame's `debug` member, `{"shapes":[…],"removed":[…]}` (each when not empty), as
/// `PublishedDebugLayer.publish` reports it. One per session, reused: its buffer keeps its size.
public struct DebugFrameWriter: DebugLayerSink, Sendable {
    /// True when the debug layer did not change.
    public private(set) var isEmpty = true
    private var shapes = ByteBuffer()
    private var removed: [DebugShapeID] = []
    /// Shapes written in all (new or changed), for `stats`.
    public private(set) var shapesWritten = 0

    public init() {}

    public mutating func beginDebug() {
        isEmpty = true
        shapes.clear()
        removed.removeAll(keepingCapacity: true)
    }

    public mutating func shape(_ shape: UnsafePointer<DebugShape>) {
        isEmpty = false
        if !shapes.isEmpty { shapes.append(UInt8(ascii: ",")) }
        WireEncoding.writeDebugShape(shape.pointee, into: &shapes)
        shapesWritten += 1
    }

    public mutating func removed(_ id: DebugShapeID) {
        isEmpty = false
        removed.append(id)
    }

    /// `"debug":{…}` as a field of the frame's params.
    public func write(_ o: inout JSONObjectWriter, into b: inout ByteBuffer) {
        o.key("debug", into: &b)
        var d = JSONObjectWriter(into: &b)
        if !shapes.isEmpty {
            d.key("shapes", into: &b)
            b.append(UInt8(ascii: "["))
            b.append(shapes)
            b.append(UInt8(ascii: "]"))
        }
        if !removed.isEmpty {
            d.key("removed", into: &b)
            var a = JSONArrayWriter(into: &b)
            for id in removed {
                a.element(into: &b)
                WireEncoding.writeDebugShapeID(id, into: &b)
            }
            a.end(into: &b)
        }
        d.end(into: &b)
    }
}
