import Testing

/// Reading getComputedStyle's transform text back into 16 numbers, without a browser.
struct CSSTransformTextTests {
    @Test func noneIsTheIdentity() {
        #expect(cssTransformMatrix("none") == SceneTransform.identity)
    }

    @Test func aTwoDimensionalMatrixGrowsToFourByFour() {
        #expect(cssTransformMatrix("matrix(0.5, 0.25, -0.25, 0.5, 10.5, -3)")
                == [0.5, 0.25, 0, 0, -0.25, 0.5, 0, 0, 0, 0, 1, 0, 10.5, -3, 0, 1])
    }

    @Test func matrix3dIsTakenAsItIs() {
        let text = "matrix3d(0.34202, 0, -0.939693, 0.001879, 0, 1, 0, 0, 0.939693, 0, 0.34202, -0.000684, 1234.46, 0, -2.00012e+06, 1.20025)"
        #expect(cssTransformMatrix(text) == [0.34202, 0, -0.939693, 0.001879, 0, 1, 0, 0, 0.939693, 0, 0.34202, -0.000684, 1234.46, 0, -2.00012e+06, 1.20025])
    }

    @Test func anythingElseIsRefused() {
        #expect(cssTransformMatrix("rotate(10deg)") == nil)
        #expect(cssTransformMatrix("matrix(1, 0, 0, 1, 0)") == nil)
        #expect(cssTransformMatrix("matrix3d(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, x, 1)") == nil)
    }
}
