/// The command line: `--name value` pairs (see WebFanout.swift's header for the names).
struct Options {
    private var values: [String: String] = [:]

    init(_ arguments: [String]) throws(BenchFailure) {
        var rest = arguments[...]
        while let name = rest.popFirst() {
            guard name.hasPrefix("--"), let value = rest.popFirst() else { throw BenchFailure("expected --name value, found \(name)") }
            values[String(name.dropFirst(2))] = value
        }
    }

    func string(_ name: String, _ fallback: String? = nil) throws(BenchFailure) -> String {
        guard let value = values[name] ?? fallback else { throw BenchFailure("--\(name) is required") }
        return value
    }

    func int(_ name: String, _ fallback: Int) throws(BenchFailure) -> Int {
        guard let text = values[name] else { return fallback }
        guard let value = Int(text) else { throw BenchFailure("--\(name) takes an integer, found \(text)") }
        return value
    }

    func double(_ name: String, _ fallback: Double) throws(BenchFailure) -> Double {
        guard let text = values[name] else { return fallback }
        guard let value = Double(text) else { throw BenchFailure("--\(name) takes a number, found \(text)") }
        return value
    }

    /// A process id to read CPU time of, if given.
    func pid(_ name: String) throws(BenchFailure) -> Int32? {
        guard let text = values[name] else { return nil }
        guard let value = Int32(text) else { throw BenchFailure("--\(name) takes a process id, found \(text)") }
        return value
    }
}
