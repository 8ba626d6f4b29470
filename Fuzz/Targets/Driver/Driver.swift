/// libFuzzer's driver (compiler-rt, linked by `-sanitize=fuzzer`), entered from each target's
/// `<module>_main` with its test function.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ test: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt

/// Runs libFuzzer with `test` on the process's arguments.
public func runFuzzer(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                      _ test: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, test)
}
