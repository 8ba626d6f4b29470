import TrellisCore
import TrellisProtocol

/// A quantity `trellis plot` draws against time: one number read from the session at each
/// sample, either of one element (`dynamics.item`: the animator's state, or where an element
/// no behaviour acts on is drawn) or of the session's scroll (the session info's `scroll`).
public enum PlotProperty: String, CaseIterable, Sendable {
    case centerX = "center.x", centerY = "center.y"
    case angle
    case velocityX = "velocity.x", velocityY = "velocity.y", speed
    case angularVelocity
    case offsetX = "offset.x", offsetY = "offset.y"
    case scrollVelocityX = "scroll.velocity.x", scrollVelocityY = "scroll.velocity.y"

    /// The names a user may give and what each stands for: a vector's name is both components.
    public static func parse(_ text: String) throws(SyntaxError) -> [PlotProperty] {
        if let one = PlotProperty(rawValue: text) { return [one] }
        switch text {
        case "center": return [.centerX, .centerY]
        case "velocity": return [.velocityX, .velocityY]
        case "offset": return [.offsetX, .offsetY]
        case "scroll.velocity": return [.scrollVelocityX, .scrollVelocityY]
        default:
            throw SyntaxError("'\(text)': expected a property: \(Self.vocabulary)")
        }
    }

    /// Every name `parse` reads, for help and refusals.
    public static let vocabulary = "center.x, center.y, center, angle, velocity.x, velocity.y, velocity, speed, "
        + "angularVelocity (an element's), offset.x, offset.y, offset, scroll.velocity.x, scroll.velocity.y, scroll.velocity (the session's scroll)"

    /// True for a property of one element, false for one of the session's scroll.
    public var isElements: Bool {
        switch self {
        case .offsetX, .offsetY, .scrollVelocityX, .scrollVelocityY: return false
        default: return true
        }
    }

    /// What the axis is measured in.
    public var unit: String {
        switch self {
        case .centerX, .centerY, .offsetX, .offsetY: return "pt"
        case .angle: return "rad"
        case .velocityX, .velocityY, .speed, .scrollVelocityX, .scrollVelocityY: return "pt/s"
        case .angularVelocity: return "rad/s"
        }
    }

    /// The value in an element's `dynamics.item` result, or nil when this is not an element's
    /// property or the result lacks it.
    public func value(ofItem item: JSONValue) -> Double? {
        func component(_ key: String, _ index: Int) -> Double? { Self.component(item, key, index) }
        switch self {
        case .centerX: return component("center", 0)
        case .centerY: return component("center", 1)
        case .angle: return item["angle"]?.numberValue
        case .velocityX: return component("velocity", 0)
        case .velocityY: return component("velocity", 1)
        case .speed:
            guard let x = component("velocity", 0), let y = component("velocity", 1) else { return nil }
            return (x * x + y * y).squareRoot()
        case .angularVelocity: return item["angularVelocity"]?.numberValue
        case .offsetX, .offsetY, .scrollVelocityX, .scrollVelocityY: return nil
        }
    }

    /// The value in a session info's `scroll` state, or nil for an element's property.
    public func value(ofScroll scroll: JSONValue) -> Double? {
        func component(_ key: String, _ index: Int) -> Double? { Self.component(scroll, key, index) }
        switch self {
        case .offsetX: return component("contentOffset", 0)
        case .offsetY: return component("contentOffset", 1)
        case .scrollVelocityX: return component("velocity", 0)
        case .scrollVelocityY: return component("velocity", 1)
        default: return nil
        }
    }

    /// Component `index` of the pair `object[key]` (`[x, y]`), or nil when it is not one.
    private static func component(_ object: JSONValue, _ key: String, _ index: Int) -> Double? {
        guard case .array(let pair)? = object[key], pair.count == 2 else { return nil }
        return pair[index].numberValue
    }
}
