import Testing
@testable import TrellisCore

@Suite struct ScrollStateTests {
    let state = ScrollState(boundsSize: Size(100, 200), contentOffset: Point(0, 300),
                            contentInset: EdgeInsets(top: 20, left: 0, bottom: 10, right: 0),
                            contentSize: Size(100, 1000))

    @Test func restingRangeIncludesInsets() {
        #expect(state.minimumContentOffset == Point(0, -20))
        #expect(state.maximumContentOffset == Point(0, 810))  // 1000 + 10 - 200
        #expect(state.clamped(Point(-5, -100)) == Point(0, -20))
        #expect(state.clamped(Point(5, 5000)) == Point(0, 810))
    }

    @Test func shortContentRestsAtTop() {
        let short = ScrollState(boundsSize: Size(100, 200), contentSize: Size(100, 50))
        #expect(short.maximumContentOffset == .zero)
    }

    @Test func scrollPositionsVertical() {
        let frame = Rect(0, 500, 100, 40)
        #expect(state.offset(showing: frame, at: .top) == Point(0, 480))          // below the 20 pt inset
        #expect(state.offset(showing: frame, at: .bottom) == Point(0, 350))       // 540 - 170 - 20
        #expect(state.offset(showing: frame, at: .centeredVertically) == Point(0, 415))  // 520 - 85 - 20
        #expect(state.offset(showing: Rect(0, 0, 100, 40), at: .bottom) == Point(0, -20))  // clamped
        #expect(state.offset(showing: Rect(0, 990, 100, 10), at: .top) == Point(0, 810))   // clamped
    }

    @Test func scrollPositionsHorizontalKeepVertical() {
        let wide = ScrollState(boundsSize: Size(100, 100), contentOffset: Point(0, 30), contentSize: Size(1000, 200))
        let frame = Rect(400, 0, 50, 50)
        #expect(wide.offset(showing: frame, at: .left) == Point(400, 30))
        #expect(wide.offset(showing: frame, at: .right) == Point(350, 30))
        #expect(wide.offset(showing: frame, at: .centeredHorizontally) == Point(375, 30))
        #expect(wide.offset(showing: frame, at: [.left, .bottom]) == Point(400, 0))
    }

    @Test func positionsParseAndValidate() {
        #expect(ScrollPosition(names: "centeredVertically") == .centeredVertically)
        #expect(ScrollPosition(names: "top,left") == [.top, .left])
        #expect(ScrollPosition(names: "middle") == nil)
        #expect(ScrollPosition.top.rawValue == 1 && ScrollPosition.right.rawValue == 32)
        #expect(ScrollPosition([.top, .bottom]).validationError != nil)
        #expect(ScrollPosition([.top, .right]).validationError == nil)
    }
}
