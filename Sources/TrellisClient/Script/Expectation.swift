import TrellisCore

/// An `expect` line: what it checks, in which session.
///
/// - `attributes`: one element's attributes. `expect NAME 0:3 frame=…` reads the layout's model
///   values (`query.attributes`, as UIKit's `layoutAttributesForItem(at:)`), where the element
///   goes; `expect NAME scene 0:3 alpha=…` reads what is on screen now (`query.scene`, the
///   presentation values mid-animation).
/// - `session`: values of the whole scene (`visible`, `offset`, `contentSize`, `time`) and
///   numbers from `stats {session}` by dotted path (`pool.cell.created<=20`).
/// - `sceneFile`: `query.scene` equal to a JSON file, numbers within a tolerance.
/// - `dynamicState`: one element's state in the session's animator (`dynamics.item`):
///   `expect NAME item:i0 center=… velocity=… angle=…`, `expect NAME body:panel …`.
/// - `dynamics`: the animator as a whole (`dynamics.list`): `expect NAME dynamics running==false`.
/// - `scroll`: the scroll state under a finger (session.info's `scroll`):
///   `expect NAME scroll dragging==false decelerating==false offset=0,1200 velocity=0,0`.
public enum Expectation: Hashable, Sendable {
    case attributes(session: String, element: ElementSelector, source: AttributeSource, checks: [AttributeCheck], tolerance: Double)
    case session(session: String, scene: [SceneCheck], stats: [StatCheck], tolerance: Double)
    case sceneFile(session: String, path: String, tolerance: Double)
    case dynamicState(session: String, element: ElementSelector, checks: [DynamicCheck], tolerance: Double)
    case dynamics(session: String, checks: [StatCheck])
    case scroll(session: String, checks: [ScrollCheck], tolerance: Double)

    /// The session the expectation reads.
    public var session: String {
        switch self {
        case .attributes(let s, _, _, _, _), .session(let s, _, _, _), .sceneFile(let s, _, _), .dynamicState(let s, _, _, _),
             .dynamics(let s, _), .scroll(let s, _, _):
            return s
        }
    }

    /// Tolerance for numbers when a line gives none: layouts place things on fractional
    /// points (137.5) and circles go through sin/cos, whose last digits vary between C
    /// libraries, so exact equality would make scripts machine-dependent.
    public static let defaultTolerance = 0.001
}

/// Which element an attribute check reads.
public enum ElementSelector: Hashable, Sendable, CustomStringConvertible {
    /// The cell at an index path (`0:3`).
    case cell(IndexPath)
    /// The cell showing an item identifier (`item:n0`), wherever it is.
    case item(String)
    /// A supplementary or decoration view of a section: `header:0`, `footer:0`, `background:0`.
    case supplementary(kind: String, section: Int)
    /// A supplementary view of an item, by its kind and the item's index path (a compositional
    /// layout's badge: `badge:0:3`).
    case itemSupplementary(kind: String, path: IndexPath)
    /// A free body by name (`body:panel`).
    case body(String)

    public var description: String {
        switch self {
        case .body(let name): return "body:\(name)"
        case .cell(let p): return "\(p.section):\(p.item)"
        case .item(let id): return "item:\(id)"
        case .supplementary(let kind, let section): return "\(kind):\(section)"
        case .itemSupplementary(let kind, let path): return "\(kind):\(path.section):\(path.item)"
        }
    }
}

/// Model values (the layout's attributes) or presentation values (the scene now).
public enum AttributeSource: Hashable, Sendable {
    case model
    case presentation
}

/// One `key=value` of an attribute check.
public enum AttributeCheck: Hashable, Sendable {
    /// `frame=x,y,w,h`.
    case frame(Rect)
    /// `center=x,y`: the frame's centre (what circle and carousel layouts place).
    case center(Point)
    /// `size=WxH`.
    case size(Size)
    /// `alpha<op>n`.
    case alpha(Comparison, Double)
    /// `zIndex<op>n`.
    case zIndex(Comparison, Double)
    /// `hidden=true|false`.
    case hidden(Bool)
    /// `id=ITEM`: the item the cell shows.
    case id(String)
    /// `transform=identity` or 16 numbers, as the protocol writes them.
    case transform([Double])
    /// `absent`: no such element (model) or no view showing it (presentation).
    case absent
}

/// One `key=value` of a dynamic-state check (`dynamics.item`); every number within the
/// line's tolerance.
public enum DynamicCheck: Hashable, Sendable {
    /// `center=x,y`.
    case center(Point)
    /// `size=WxH`.
    case size(Size)
    /// `velocity=dx,dy` in points per second.
    case velocity(Point)
    /// `speed<op>n`: the velocity's length, pt/s (`speed<1` for "at rest").
    case speed(Comparison, Double)
    /// `angle<op>radians`.
    case angle(Comparison, Double)
    /// `angularVelocity<op>rad/s`.
    case angularVelocity(Comparison, Double)
    /// `dynamic=true|false`: whether a behaviour acts on the element.
    case dynamic(Bool)
}

/// One `key=value` of a scroll-state check (session.info's `scroll`); numbers within the
/// line's tolerance.
public enum ScrollCheck: Hashable, Sendable {
    /// `dragging==false`, `decelerating`, `bouncing`, `tracking`: a state flag, == or !=.
    case flag(String, Comparison, Bool)
    /// `offset=x,y`: the content offset on screen.
    case offset(Point)
    /// `velocity=dx,dy`: the offset's velocity, pt/s.
    case velocity(Point)
    /// `speed<op>n`: the velocity's length, pt/s.
    case speed(Comparison, Double)
    /// `current=S:I`: the layout's current item (a carousel's, a snapping layout's centred one).
    case current(IndexPath)
}

/// One check on the whole scene.
public enum SceneCheck: Hashable, Sendable {
    /// `visible<op>n`: views bound in the scene.
    case visible(Comparison, Double)
    /// `offset=x,y`: the content offset.
    case offset(Point)
    /// `contentSize=WxH`.
    case contentSize(Size)
    /// `time<op>ms`: the session's clock.
    case time(Comparison, Double)
}

/// `path<op>number` on the session's `stats`, e.g. `pool.cell.created<=20`, `animating==0`.
public struct StatCheck: Hashable, Sendable {
    public var path: [String]
    public var comparison: Comparison
    public var value: Double

    public init(path: [String], comparison: Comparison, value: Double) {
        self.path = path
        self.comparison = comparison
        self.value = value
    }
}
