/// Runs `body`, giving up with a failure after `seconds` (a bound on waiting for sockets, not
/// a sleep that stands in for a condition).
func withDeadline<T: Sendable>(
    seconds: Double, _ what: String, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            throw WebTestFailure("\(what): nothing after \(seconds) s")
        }
        defer { group.cancelAll() }
        return try await group.next()!
    }
}

/// What `body` ended with, kept so that a test can clean up before it reports.
func outcome<T>(of body: () async throws -> T) async -> Result<T, any Error> {
    do { return .success(try await body()) } catch { return .failure(error) }
}
