import TrellisGeometry

/// Which items of the collision behaviours touch each other or a boundary, from step to step,
/// and the began/ended events when that changes (UICollisionBehaviorDelegate).
///
/// A contact touches during a step when its gap before the step, or the gap the solver leaves
/// at its end (gap + normal speed × step), is at most `tolerance`: a speculative contact within
/// the margin does not touch, and an impact that bounces away within one step still does (one
/// struck within the step, `Impact`, touches whatever its gaps). Two
/// items, or an item and a boundary, touch when one of their contacts does; a rect's or an
/// ellipse's sides are one boundary, and the reference bounds' four sides are one.
/// Kept as numbers (behaviour, item ids, boundary number); a boundary's identifier is looked
/// up only when its contact begins, and kept for the ended event.
struct ContactTracker: Sendable {
    /// Box2D's linear slop: a resting contact settles within it.
    static let tolerance = Contact.slop

    /// Orders touches as events are ordered: by behaviour, then the first item's id, then the
    /// other item's id, boundaries after items (`second` is `Int.max`), reference bounds (0)
    /// before the named boundaries (1, 2, … in the order they were added).
    struct Key: Equatable, Sendable {
        var behavior: Int
        var first: Int
        var second: Int
        var boundary: Int

        static func < (x: Key, y: Key) -> Bool {
            (x.behavior, x.first, x.second, x.boundary) < (y.behavior, y.first, y.second, y.boundary)
        }
    }

    struct Touch: Sendable {
        var key: Key
        var point: Point
        /// The named boundary's identifier, kept from when it began (nil for items and the bounds).
        var identifier: String?
    }

    typealias Touches = [Touch]
    /// This step's touches, sorted by key.
    private var touching: Touches = []
    /// `touching` itself: an array that is not changed keeps its storage, so the debug layer
    /// can tell that no touch began or ended without comparing them.
    var touchArray: Touches { touching }
    /// The keys as the behaviours found them (for the no-change check without sorting).
    private var found: [Key] = []

    init() {}

    /// A tracker as a snapshot kept it.
    init(touches: [TouchingContact], found: [TouchKey]) {
        touching = touches.map { Touch(key: Self.key($0.key), point: $0.point, identifier: $0.identifier) }
        self.found = found.map(Self.key)
    }

    /// The touches and found keys as plain values, for a snapshot.
    var touches: [TouchingContact] { touching.map { TouchingContact(key: Self.touchKey($0.key), point: $0.point, identifier: $0.identifier) } }

    var foundKeys: [TouchKey] { found.map(Self.touchKey) }

    private static func key(_ k: TouchKey) -> Key {
        Key(behavior: k.behavior, first: k.first, second: k.second ?? .max, boundary: k.boundary)
    }

    private static func touchKey(_ k: Key) -> TouchKey {
        TouchKey(behavior: k.behavior, first: k.first, second: k.second == .max ? nil : k.second, boundary: k.boundary)
    }

    /// A step's touches, as the contacts of each behaviour's range found them.
    /// - `identifier`: a boundary's identifier by behaviour and boundary number (called when one begins).
    mutating func update(contacts: [Contact], owners: [(behavior: BehaviorID, range: Range<Int>)], bodies: [DynamicBody],
                         step h: Double, identifier: (BehaviorID, Int) -> String?, emit: (DynamicAnimator.Event) -> Void) {
        var current: [Touch] = []
        current.reserveCapacity(found.count)
        var points = 0
        for (behavior, range) in owners {
            for contact in contacts[range] {
                let gapAfter = contact.separation + h * contact.relativeVelocity(bodies).dot(contact.normal)
                guard min(contact.separation, gapAfter) <= Self.tolerance || contact.impact != nil else { continue }
                let key = Self.key(contact, behavior)
                if let last = current.last, last.key == key {
                    // Another point of the same touch (a face): report their middle.
                    points += 1
                    let p = contact.surfacePoint, q = last.point, w = 1 / Double(points)
                    current[current.count - 1].point = Point(q.x + (p.x - q.x) * w, q.y + (p.y - q.y) * w)
                } else {
                    current.append(Touch(key: key, point: contact.surfacePoint))
                    points = 1
                }
            }
        }
        // Unchanged (a resting pile, the usual step): nothing to sort or report.
        if current.count == found.count, zip(current, found).allSatisfy({ $0.key == $1 }) { return }
        found = current.map(\.key)
        current.sort { $0.key < $1.key }
        var merged: [Touch] = []
        merged.reserveCapacity(current.count)
        var i = 0, j = 0
        while i < touching.count || j < current.count {
            if j > 0, j < current.count, current[j].key == current[j - 1].key {
                j += 1  // a touch found twice (the same pair in two runs): once is enough
            } else if j == current.count || (i < touching.count && touching[i].key < current[j].key) {
                emit(Self.ended(touching[i]))
                i += 1
            } else if i == touching.count || current[j].key < touching[i].key {
                var touch = current[j]
                if touch.key.boundary > 0 { touch.identifier = identifier(BehaviorID(touch.key.behavior), touch.key.boundary) }
                emit(Self.began(touch))
                merged.append(touch)
                j += 1
            } else {
                merged.append(touching[i])
                i += 1
                j += 1
            }
        }
        touching = merged
    }

    /// Ends the touches `ends` picks out now (a behaviour or an item removed), in order.
    mutating func end(where ends: (Touch) -> Bool, emit: (DynamicAnimator.Event) -> Void) {
        guard touching.contains(where: ends) else { return }
        for touch in touching where ends(touch) { emit(Self.ended(touch)) }
        touching.removeAll(where: ends)
        found.removeAll()
    }

    mutating func end(behavior: BehaviorID, emit: (DynamicAnimator.Event) -> Void) {
        end(where: { $0.key.behavior == behavior.rawValue }, emit: emit)
    }

    mutating func end(item: DynamicItemID, emit: (DynamicAnimator.Event) -> Void) {
        end(where: { $0.key.first == item.rawValue || $0.key.second == item.rawValue && $0.key.boundary < 0 }, emit: emit)
    }

    /// After a behaviour was replaced: its touches of a named boundary whose identifier is no
    /// longer the one they began with (removed or replaced) end now.
    mutating func endRenamedBoundaries(of behavior: BehaviorID, identifier: (Int) -> String?, emit: (DynamicAnimator.Event) -> Void) {
        end(where: { $0.key.behavior == behavior.rawValue && $0.key.boundary > 0 && identifier($0.key.boundary) != $0.identifier },
            emit: emit)
    }

    static func key(_ contact: Contact, _ behavior: BehaviorID) -> Key {
        if let a = contact.key.a {
            let x = a.rawValue, y = contact.key.b.rawValue
            return Key(behavior: behavior.rawValue, first: min(x, y), second: max(x, y), boundary: -1)
        }
        return Key(behavior: behavior.rawValue, first: contact.key.b.rawValue, second: .max,
                   boundary: contact.key.boundaryNumber)
    }

    static func began(_ touch: Touch) -> DynamicAnimator.Event {
        let (a, b) = items(touch.key)
        return .collisionBegan(behavior: BehaviorID(touch.key.behavior), a: a, b: b, boundary: touch.identifier, point: touch.point)
    }

    static func ended(_ touch: Touch) -> DynamicAnimator.Event {
        let (a, b) = items(touch.key)
        return .collisionEnded(behavior: BehaviorID(touch.key.behavior), a: a, b: b, boundary: touch.identifier)
    }

    private static func items(_ key: Key) -> (DynamicItemID, DynamicItemID?) {
        (DynamicItemID(key.first), key.boundary < 0 ? DynamicItemID(key.second) : nil)
    }
}
