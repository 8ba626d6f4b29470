import TrellisCore

/// Batch validation and application on any bytes: the bytes become sections of items and item
/// operations (`ItemBatchScenario`, shared with the tests), and the engine's `BatchUpdate.apply`
/// must agree with `ReferenceItemBatch`, a plain rendering of UIKit's rules: the same items
/// after, or both refuse. A disagreement stops the run as a crash, and its input is kept.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBatch(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let scenario = ItemBatchScenario(bytes: Array(UnsafeBufferPointer(start: data, count: min(size, 512))))
    if let problem = scenario.disagreement() {
        fatalError("engine and reference disagree: \(problem)")
    }
    return 0
}
