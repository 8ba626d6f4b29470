import TrellisDynamics

/// The debug layer every caught-up debug viewer holds, as the server keeps it: the last layer
/// published. The next frame's `debug` member is the difference between it and the layer now,
/// found by walking both in id order (no hashing): the scene's shapes compared whole, the
/// items' and contacts' plain records compared in a loop, a shape made only for what changed.
public struct PublishedDebugLayer: Sendable {
    public private(set) var contents = DebugLayerContents()
    /// The contacts as built when last published: a layer that brings the same array (no touch
    /// began or ended) has nothing new to say about them.
    private var contactsPublishedFrom: [DebugContactRecord] = []

    public init() {}

    /// What a viewer holds after a keyframe of `shapes` (sorted by id).
    public init(keyframe shapes: [DebugShape]) { contents = DebugLayerContents(shapes: shapes) }

    /// What a viewer holds after a keyframe of `layer`.
    public init(keyframe layer: DebugLayerContents) {
        contents = layer
        contactsPublishedFrom = layer.contacts
    }

    /// Every shape viewers hold, in id order (made from the records: a keyframe's cost).
    public var shapes: [DebugShape] { contents.allShapes }

    public var isEmpty: Bool { contents.isEmpty }

    /// Moves to `new` and reports what changed to `sink`, in id order. `new.shapes` is handed
    /// back holding the old shapes, so the caller's buffer keeps its capacity frame after frame.
    /// A velocity arrow or a contact that moved no more than its step from what viewers hold
    /// is not sent: viewers keep the one they have, and so does this layer, so a shape that
    /// wanders goes again once it is a step from what was sent, and one that jitters across a
    /// grid line does not go every frame.
    public mutating func publish<Sink: DebugLayerSink>(_ new: inout DebugLayerContents, reporting sink: inout Sink) {
        sink.beginDebug()
        publishShapes(&new.shapes, reporting: &sink)
        publishItems(new.items, reporting: &sink)
        if !(new.contacts.count == contactsPublishedFrom.count && Self.sameStorage(new.contacts, contactsPublishedFrom)) {
            publishContacts(new.contacts, reporting: &sink)
            contactsPublishedFrom = new.contacts
        }
    }

    /// Moves to a layer of `new` shapes alone (sorted by id), as `publish` does.
    public mutating func publish<Sink: DebugLayerSink>(_ new: inout [DebugShape], reporting sink: inout Sink) {
        var layer = DebugLayerContents()
        swap(&layer.shapes, &new)
        publish(&layer, reporting: &sink)
        swap(&layer.shapes, &new)
    }

    /// `publish` into a frame writer, specialised here (as `PublishedScene`'s is).
    public mutating func publish(_ new: inout DebugLayerContents, writing frame: inout DebugFrameWriter) {
        publish(&new, reporting: &frame)
    }

    public mutating func publish(_ new: inout [DebugShape], writing frame: inout DebugFrameWriter) {
        publish(&new, reporting: &frame)
    }

    private static func sameStorage<T>(_ a: [T], _ b: [T]) -> Bool {
        a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress } }
    }

    @inline(__always)
    private static func send<Sink: DebugLayerSink>(_ shape: DebugShape, to sink: inout Sink) {
        withUnsafePointer(to: shape) { sink.shape($0) }
    }

    /// The scene's shapes, compared whole.
    private mutating func publishShapes<Sink: DebugLayerSink>(_ new: inout [DebugShape], reporting sink: inout Sink) {
        contents.shapes.withUnsafeBufferPointer { old in
            new.withUnsafeMutableBufferPointer { now in
                var i = 0, j = 0
                while i < old.count || j < now.count {
                    if j == now.count || (i < old.count && old[i].id < now[j].id) {
                        sink.removed(old[i].id)
                        i += 1
                    } else if i == old.count || now[j].id < old[i].id {
                        sink.shape(now.baseAddress! + j)
                        j += 1
                    } else {
                        if old[i] != now[j] { sink.shape(now.baseAddress! + j) }
                        i += 1
                        j += 1
                    }
                }
            }
        }
        swap(&contents.shapes, &new)
    }

    /// The items' records: when the same items are there as before (the usual frame), each is
    /// compared with its own in place; when items came or went, the two lists are merged.
    private mutating func publishItems<Sink: DebugLayerSink>(_ now: [DebugItemRecord], reporting sink: inout Sink) {
        var held: [DebugItemRecord] = []
        swap(&held, &contents.items)
        let aligned = held.count == now.count && held.withUnsafeBufferPointer { old in
            now.withUnsafeBufferPointer { now in
                for k in 0..<now.count where old[k].owner != now[k].owner { return false }
                return true
            }
        }
        if aligned {
            held.withUnsafeMutableBufferPointer { old in
                now.withUnsafeBufferPointer { now in
                    for k in 0..<now.count where old[k] != now[k] {
                        Self.publish(&old[k], now[k], reporting: &sink)
                    }
                }
            }
            contents.items = held
            return
        }
        var merged: [DebugItemRecord] = []
        merged.reserveCapacity(now.count)
        var i = 0, j = 0
        while i < held.count || j < now.count {
            if j == now.count || (i < held.count && held[i].owner < now[j].owner) {
                Self.remove(held[i], reporting: &sink)
                i += 1
            } else if i == held.count || now[j].owner < held[i].owner {
                Self.send(now[j].outline, to: &sink)
                Self.send(now[j].centreOfMass, to: &sink)
                if now[j].hasArrow { Self.send(now[j].arrow, to: &sink) }
                merged.append(now[j])
                j += 1
            } else {
                var item = held[i]
                if item != now[j] { Self.publish(&item, now[j], reporting: &sink) }
                merged.append(item)
                i += 1
                j += 1
            }
        }
        contents.items = merged
    }

    /// One item that changed: the parts that differ are sent (an arrow within a step of the
    /// one held is kept), and `held` becomes what viewers hold.
    @inline(__always)
    private static func publish<Sink: DebugLayerSink>(_ held: inout DebugItemRecord, _ now: DebugItemRecord, reporting sink: inout Sink) {
        if held.outlineDiffers(from: now) { send(now.outline, to: &sink) }
        if held.centreDiffers(from: now) { send(now.centreOfMass, to: &sink) }
        var kept = now
        switch (held.hasArrow, now.hasArrow) {
        case (false, false):
            break
        case (true, false):
            sink.removed(DebugShapeID(.item, now.owner, 2))
        case (false, true):
            send(now.arrow, to: &sink)
        case (true, true):
            if now.arrowIsWithinStep(of: held) {
                kept.arrowX = held.arrowX
                kept.arrowY = held.arrowY
            } else {
                send(now.arrow, to: &sink)
            }
        }
        held = kept
    }

    private static func remove<Sink: DebugLayerSink>(_ item: DebugItemRecord, reporting sink: inout Sink) {
        sink.removed(DebugShapeID(.item, item.owner, 0))
        sink.removed(DebugShapeID(.item, item.owner, 1))
        if item.hasArrow { sink.removed(DebugShapeID(.item, item.owner, 2)) }
    }

    /// The contacts, merged in id order in one pass over plain buffers (a pile has thousands,
    /// and they are merged whenever one of them begins or ends); one that moved by at most a
    /// point is kept as held.
    private mutating func publishContacts<Sink: DebugLayerSink>(_ now: [DebugContactRecord], reporting sink: inout Sink) {
        var held: [DebugContactRecord] = []
        swap(&held, &contents.contacts)
        contents.contacts = held.withUnsafeBufferPointer { held in
            now.withUnsafeBufferPointer { now in
                [DebugContactRecord](unsafeUninitializedCapacity: now.count) { merged, written in
                    var i = 0, j = 0
                    while i < held.count || j < now.count {
                        if j == now.count || (i < held.count && held[i].precedes(now[j])) {
                            sink.removed(held[i].id)
                            i += 1
                        } else if i == held.count || now[j].precedes(held[i]) {
                            Self.send(now[j].shape, to: &sink)
                            merged.initializeElement(at: written, to: now[j])
                            written += 1
                            j += 1
                        } else {
                            if held[i] == now[j] || now[j].isWithinStep(of: held[i]) {
                                merged.initializeElement(at: written, to: held[i])
                            } else {
                                Self.send(now[j].shape, to: &sink)
                                merged.initializeElement(at: written, to: now[j])
                            }
                            written += 1
                            i += 1
                            j += 1
                        }
                    }
                }
            }
        }
    }
}
