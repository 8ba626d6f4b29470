import Testing
@testable import TrellisCore

/// An orthogonal band's own scroll reports the delegate callbacks the main scroll does (begin
/// and end dragging, didScroll, end decelerating), naming its section by index and identifier,
/// and the main scroll reports none of them. Geometry: `OrthogonalScrollingTests`'.
@Suite struct OrthogonalEventTests {
    typealias Strip = OrthogonalScrollingTests

    static func band(_ events: [EngineEvent]) -> [BandScrollEvent.Kind] {
        events.compactMap { event in
            guard case .bandScroll(let e) = event else { return nil }
            #expect(e.section == 0 && e.id == "strip")
            return e.kind
        }
    }

    static func isMain(_ event: EngineEvent) -> Bool {
        switch event {
        case .scrollWillBeginDragging, .scrollWillEndDragging, .scrollDidEndDragging, .scrollDidEndDecelerating, .scrollDidScroll: true
        default: false
        }
    }

    @Test func aDragAndReleaseOfTheBandReportsItsCallbacksInOrder() throws {
        var v = Strip.view(.groupPaging)
        _ = v.drainEvents()
        try v.pan(.began, translation: .zero, location: Point(200, 50))
        #expect(Self.band(v.drainEvents()) == [.willBeginDragging(offset: 0)])
        v.advance(to: 0.1)
        try v.pan(.changed, translation: Point(-60, 0))
        #expect(Self.band(v.drainEvents()) == [.didScroll(offset: 60)])
        // Released at rest at 60: 60/110 rounds to group 1, so it will rest at 110.
        try v.pan(.ended, translation: Point(-60, 0))
        let released = v.drainEvents()
        #expect(Self.band(released) == [.willEndDragging(velocity: 0, targetOffset: 110), .didEndDragging(decelerate: true)])
        #expect(!released.contains(where: Self.isMain))
        Strip.settle(&v)
        let settled = v.drainEvents()
        let kinds = Self.band(settled)
        #expect(kinds.count >= 3)
        #expect(kinds.last == .didEndDecelerating(offset: 110))
        #expect(kinds.dropLast().allSatisfy { if case .didScroll = $0 { true } else { false } })
        #expect(kinds.dropLast().last == .didScroll(offset: 110))
        #expect(!settled.contains(where: Self.isMain))
    }

    @Test func aCancelledPanSaysNoWillEndDragging() throws {
        var v = Strip.view(.continuous)
        try v.pan(.began, translation: .zero, location: Point(200, 50))
        try v.pan(.changed, translation: Point(-30, 0))
        _ = v.drainEvents()
        try v.pan(.cancelled, translation: Point(-30, 0))
        #expect(Self.band(v.drainEvents()) == [.didEndDragging(decelerate: false)])
    }

    @Test func aCatchEndsNoDeceleration() throws {
        var v = Strip.view(.continuous)
        try Strip.drag(&v, by: 100, speed: 500)
        v.advance(to: 0.2)
        _ = v.drainEvents()
        v.touch(down: true, at: Point(200, 50))
        v.advance(to: 0.5)
        #expect(Self.band(v.drainEvents()).isEmpty)
    }
}
