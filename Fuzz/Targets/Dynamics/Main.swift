import FuzzDriver

/// SwiftPM links an executable's entry point as `<module>_main`; this one hands the process to
/// libFuzzer's driver with the target's test function.
@_cdecl("fuzz_dynamics_main")
public func fuzzDynamicsMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzzDynamics)
}
