/// A test's own failure, with what went wrong.
struct WebTestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
