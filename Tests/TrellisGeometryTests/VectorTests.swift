import Testing
import TrellisGeometry

/// Vectors as UIKit Dynamics uses them: angles clockwise on screen (y down), lengths, products.
@Suite struct VectorTests {
    @Test func anglesTurnClockwiseOnScreen() {
        let down = Vector(angle: .pi / 2, length: 2)
        #expect(abs(down.dx) < 1e-12 && down.dy == 2)
        #expect(Vector(dx: 3, dy: 4).length == 5)
        #expect(Vector(dx: 0, dy: 1).angle == .pi / 2)
        #expect(Vector(dx: 3, dy: 4).normalized == Vector(dx: 0.6, dy: 0.8))
        #expect(Vector.zero.normalized == .zero)
    }

    @Test func productsAndArithmetic() {
        let a = Vector(1, 2), b = Vector(3, -1)
        #expect(a.dot(b) == 1)
        #expect(a.cross(b) == -7)
        #expect(a.perpendicular == Vector(-2, 1))
        #expect(a + b == Vector(4, 1) && a - b == Vector(-2, 3) && -a == Vector(-1, -2))
        #expect(a * 2 == Vector(2, 4) && 2 * a == Vector(2, 4) && a / 2 == Vector(0.5, 1))
        #expect(Point(1, 1) + a == Point(2, 3))
        #expect(Point(4, 5).vector(from: Point(1, 1)) == Vector(3, 4))
        #expect(Point(4, 5).distance(to: Point(1, 1)) == 5)
    }
}
