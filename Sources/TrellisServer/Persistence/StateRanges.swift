import TrellisCore
import TrellisProtocol

/// The ranges a state from a client (`session.create {state}`, a recording's first line) must
/// keep, beyond what reading it checks: a snapshot on our own disk was written by us, a request's
/// state was not. Time 0…`maximumTime` seconds; bounds above 0 and at most
/// `ParamRanges.bounds`' end; insets in `ParamRanges.inset`; the offset in `ParamRanges.coordinate`.
enum StateRanges {
    /// About 115 days of engine time.
    static let maximumTime = 1e7

    static func check(_ state: SessionState, path: String) throws(ParamError) {
        func within(_ value: Double, _ range: ClosedRange<Double>, _ key: String) throws(ParamError) {
            guard range.contains(value) else {
                throw ParamError(path: "\(path).\(key)", .mismatch(expected: "a number in \(range.lowerBound)…\(range.upperBound)", found: value.description))
            }
        }
        try within(state.time, 0...maximumTime, "time")
        for (value, key) in [(state.bounds.width, "bounds[0]"), (state.bounds.height, "bounds[1]")] {
            try within(value, ParamRanges.bounds, key)
            guard value > 0 else { throw ParamError(path: "\(path).\(key)", .mismatch(expected: "a size above 0", found: value.description)) }
        }
        let inset = state.contentInset
        for (k, value) in [inset.top, inset.left, inset.bottom, inset.right].enumerated() {
            try within(value, ParamRanges.inset, "contentInset[\(k)]")
        }
        try within(state.contentOffset.x, ParamRanges.coordinate, "contentOffset[0]")
        try within(state.contentOffset.y, ParamRanges.coordinate, "contentOffset[1]")
    }
}
