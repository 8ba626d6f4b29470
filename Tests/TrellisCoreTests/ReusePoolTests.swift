import Testing
@testable import TrellisCore

@Suite struct ReusePoolTests {
    @Test func dequeueCreatesThenReusesLastIn() {
        var pool = ReusePool()
        let a = pool.dequeue("cell"), b = pool.dequeue("cell")
        #expect(!a.reused && !b.reused && a.view != b.view)
        pool.enqueue(a.view, reuseIdentifier: "cell")
        pool.enqueue(b.view, reuseIdentifier: "cell")
        let c = pool.dequeue("cell"), d = pool.dequeue("cell")
        #expect(c.view == b.view && c.reused)
        #expect(d.view == a.view && d.reused)
        #expect(pool.counters["cell"] == { var c = ReuseCounters(); c.created = 2; c.reused = 2; return c }())
    }

    @Test func poolsAreSeparatePerIdentifier() {
        var pool = ReusePool()
        let header = pool.dequeue("header")
        pool.enqueue(header.view, reuseIdentifier: "header")
        let cell = pool.dequeue("cell")
        #expect(cell.reused == false)
        #expect(pool.pooledCount("header") == 1)
    }

    @Test func fullPoolDestroysTheView() {
        var pool = ReusePool(limitPerIdentifier: 2)
        let views = (0..<3).map { _ in pool.dequeue("cell").view }
        let kept = [pool.enqueue(views[0], reuseIdentifier: "cell"), pool.enqueue(views[1], reuseIdentifier: "cell"),
                    pool.enqueue(views[2], reuseIdentifier: "cell")]
        #expect(kept == [true, true, false])
        #expect(pool.pooledCount("cell") == 2)
        #expect(pool.counters["cell"]?.destroyed == 1)
        pool.limits["cell"] = 3
        let keptNow = pool.enqueue(views[2], reuseIdentifier: "cell")
        #expect(keptNow)
    }

    @Test func viewIDsAreNeverReissued() {
        var pool = ReusePool(limitPerIdentifier: 0)
        let first = pool.dequeue("cell").view
        pool.enqueue(first, reuseIdentifier: "cell")
        let next = pool.dequeue("cell").view
        #expect(next != first)
    }
}
