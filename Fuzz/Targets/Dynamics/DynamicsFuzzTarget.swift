#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TrellisServer

/// Physics on any bytes: `DynamicsScenario` (shared with the tests) makes them into requests on
/// a manual-clock session and checks after each that nothing is an internal error, every dynamic
/// element's numbers are finite and no request stalls the server. A broken invariant stops the
/// run as a crash, and libFuzzer keeps its input.
///
/// Each input makes its session new and destroys it, so one input's outcome never depends on
/// the inputs before it (a kept input fails again alone); the server itself is kept, as it
/// holds nothing else. `TRELLIS_FUZZ_TRANSCRIPT=1` prints every request and reply (stderr), to read
/// what a kept input does: `fuzz-dynamics Fuzz/Regressions/dynamics/<file>`.
nonisolated(unsafe) let server = try! InProcessServer()
/// On stderr, unbuffered: a failing input ends in a trap, which would lose buffered output.
nonisolated(unsafe) let transcript: ((String) -> Void)? = getenv("TRELLIS_FUZZ_TRANSCRIPT") == nil ? nil : { line in
    _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    _ = write(2, "\n", 1)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDynamics(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let scenario = DynamicsScenario(bytes: Array(UnsafeBufferPointer(start: data, count: size)))
    if let problem = scenario.problem(on: server, transcript: transcript) {
        fatalError("fuzz-dynamics: \(problem)")
    }
    return 0
}
