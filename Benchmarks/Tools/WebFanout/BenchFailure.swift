/// Why a run could not measure anything: printed, and the tool exits with status 1.
struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
