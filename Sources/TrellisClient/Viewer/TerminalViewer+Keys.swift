#if canImport(Glibc)
import Glibc
#endif
import TrellisCore
import TrellisProtocol

/// Keys and scrolling: what each key does, and scrolling the session by asking the server.
extension TerminalViewer {
    func handleKeys(_ bytes: [UInt8]) {
        for key in TerminalKey.decode(bytes) {
            switch key {
            case .character("q"), .character("Q"), .interrupt:
                finish(.quit)
                return
            case _ where past != nil: handlePastKey(key)
            case .up, .character("k"): scroll(dy: -3)
            case .down, .character("j"): scroll(dy: 3)
            case .left, .character("h"): scroll(dx: -6)
            case .right, .character("l"): scroll(dx: 6)
            case .pageUp: scroll(pages: -1)
            case .pageDown, .character(" "): scroll(pages: 1)
            case .home, .character("g"): scroll(to: .top)
            case .end, .character("G"): scroll(to: .bottom)
            case .shiftUp, .shiftDown, .shiftLeft, .shiftRight: fling(Self.flingVelocity(for: key) ?? Point(0, 0))
            case .character("d"), .character("D"): toggleDebug()
            default: break
            }
        }
    }

    enum Edge { case top, bottom }

    /// Shows or hides the debug layer: attaches again asking for it or not, so a viewer that
    /// hides it costs the session nothing.
    func toggleDebug() {
        showsDebug.toggle()
        debugLayer = DebugLayerState()
        status.note = showsDebug ? "debug layer on" : "debug layer off"
        attach()
    }

    /// Shows the debug layer or not (the demo's steps ask for it); nothing when it already is.
    public func setDebugLayer(_ shown: Bool) {
        if shown != showsDebug { toggleDebug() }
    }

    /// A finger flick's speed, pt/s: a brisk swipe on a phone.
    public static let flingSpeed = 3000.0

    /// The finger's velocity a fling key stands for, nil for other keys. The key names where the
    /// view goes, as the plain arrows do: shift+down shows content further down, which is a
    /// finger flicked up (negative y in the view).
    public static func flingVelocity(for key: TerminalKey) -> Point? {
        switch key {
        case .shiftDown: return Point(0, -flingSpeed)
        case .shiftUp: return Point(0, flingSpeed)
        case .shiftRight: return Point(-flingSpeed, 0)
        case .shiftLeft: return Point(flingSpeed, 0)
        default: return nil
        }
    }

    /// Flicks the content: the pan samples of a fling, sent at once (the session's own clock,
    /// live under a viewer, runs the deceleration).
    func fling(_ velocity: Point) {
        guard !configuration.readOnly else {
            setNote("fling keys off")
            return
        }
        // A fling replaces any keyed scroll still under way.
        scrollTarget = nil
        for sample in PanGesture.fling(velocity: velocity) {
            var params = sample.params
            params["session"] = .string(configuration.session)
            connection.call("gesture.pan", params) { [unowned self] result in
                if case .failure(let error) = result { self.setNote("fling refused: \(error)") }
            }
        }
    }

    /// Scrolls by whole cells (`dx` columns, `dy` rows) as drawn now, or by pages of the bounds.
    func scroll(dx: Int = 0, dy: Int = 0, pages: Double = 0, to edge: Edge? = nil) {
        guard let scene = mirror?.scene else { return }
        guard !configuration.readOnly else {
            setNote("scroll keys off")
            return
        }
        let mapping = currentMapping(scene)
        let base = scrollTarget ?? scene.contentOffset
        var target = Point(base.x + Double(dx) * mapping.pointsPerColumn,
                           base.y + Double(dy) * mapping.pointsPerRow + pages * scene.boundsSize.height * 0.9)
        switch edge {
        case .top: target.y = 0
        case .bottom: target.y = .infinity
        case nil: break
        }
        // scroll.to is unclamped (as setContentOffset); keys stay inside the content.
        let maxX = max(0, scene.contentSize.width - scene.boundsSize.width)
        let maxY = max(0, scene.contentSize.height - scene.boundsSize.height)
        target = Point(min(max(target.x, 0), maxX), min(max(target.y, 0), maxY))
        guard target != base else { return }
        scrollTarget = target
        connection.call("scroll.to", ["session": .string(configuration.session),
                                      "offset": .array([.number(target.x), .number(target.y)])]) { [unowned self] result in
            if case .failure(let error) = result {
                self.scrollTarget = nil
                self.setNote("scroll refused: \(error)")
            }
        }
    }
}
