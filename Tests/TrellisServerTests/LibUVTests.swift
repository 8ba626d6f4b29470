import Testing
import CLibUV
import TrellisTransport
@testable import TrellisServer

@Suite struct LibUVTests {
    @Test func linksAgainstLibUV1() {
        #expect(LibUV.version.hasPrefix("1."))
    }

    @Test func loopRunsATimer() {
        // A real loop and a real timer: proves the system library links and runs.
        let loop = UnsafeMutablePointer<uv_loop_t>.allocate(capacity: 1)
        defer { loop.deallocate() }
        #expect(uv_loop_init(loop) == 0)
        let timer = UnsafeMutablePointer<uv_timer_t>.allocate(capacity: 1)
        defer { timer.deallocate() }
        uv_timer_init(loop, timer)
        let fired = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        fired.pointee = 0
        defer { fired.deallocate() }
        timer.pointee.data = UnsafeMutableRawPointer(fired)
        uv_timer_start(timer, { handle in
            handle!.pointee.data.assumingMemoryBound(to: Int.self).pointee += 1
        }, 1, 0)
        uv_run(loop, UV_RUN_DEFAULT)
        #expect(fired.pointee == 1)
        uv_close(UnsafeMutableRawPointer(timer).assumingMemoryBound(to: uv_handle_t.self), nil)
        uv_run(loop, UV_RUN_DEFAULT)
        #expect(uv_loop_close(loop) == 0)
    }
}
