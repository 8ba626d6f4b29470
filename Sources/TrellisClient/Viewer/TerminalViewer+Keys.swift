#if canImport(Glibc)
import Glibc
#endif
import CLibUV
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
            case .up, .character("k"): scroll(dy: -3)
            case .down, .character("j"): scroll(dy: 3)
            case .left, .character("h"): scroll(dx: -6)
            case .right, .character("l"): scroll(dx: 6)
            case .pageUp: scroll(pages: -1)
            case .pageDown, .character(" "): scroll(pages: 1)
            case .home, .character("g"): scroll(to: .top)
            case .end, .character("G"): scroll(to: .bottom)
            default: break
            }
        }
    }

    enum Edge { case top, bottom }

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
