import CLibUV

/// Work that would hold the loop past its budget (writing a large snapshot), run on libuv's
/// thread pool (`uv_queue_work`), its result handed back on the loop's thread.
///
/// The work must touch nothing the loop owns: it gets values (copy-on-write data is safe to read
/// while the loop goes on changing its own copy) and returns one.
public enum BackgroundWork {
    /// Runs `work` on the pool, then `completion` with its result on the loop's thread. False
    /// (and nothing runs) when libuv refused the request.
    @discardableResult
    public static func run<Result: Sendable>(on loop: EventLoop, _ work: @escaping @Sendable () -> Result,
                                             completion: @escaping (Result) -> Void) -> Bool {
        let result = Slot<Result>()
        let job = Job(work: { result.value = work() }, completion: { result.value.map(completion) })
        let request = UnsafeMutablePointer<uv_work_t>.allocate(capacity: 1)
        request.initialize(to: uv_work_t())
        request.pointee.data = Unmanaged.passRetained(job).toOpaque()
        let status = uv_queue_work(loop.loop, request, { request in
            Unmanaged<Job>.fromOpaque(request!.pointee.data).takeUnretainedValue().work()
        }, { request, _ in
            let job = Unmanaged<Job>.fromOpaque(request!.pointee.data).takeRetainedValue()
            request!.deallocate()
            job.completion()
        })
        guard status == 0 else {
            Unmanaged<Job>.fromOpaque(request.pointee.data).release()
            request.deallocate()
            return false
        }
        return true
    }

    /// One request's two halves: `work` on a pool thread, then `completion` on the loop's.
    private final class Job: @unchecked Sendable {
        let work: () -> Void
        let completion: () -> Void

        init(work: @escaping () -> Void, completion: @escaping () -> Void) {
            self.work = work
            self.completion = completion
        }
    }

    /// Where the pool's thread leaves the result for the loop's, which reads it only after
    /// libuv's queue has ordered the two (hence `@unchecked Sendable`).
    private final class Slot<Value>: @unchecked Sendable {
        var value: Value?
    }
}
