/// Polls `condition` every 20 ms until it holds or `timeout` passes; returns whether it held. For
/// waiting on a state that no event announces (a client count, a connection count).
public func eventually(timeout: Duration = .seconds(5), _ condition: () -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try await Task.sleep(for: .milliseconds(20))
    }
    return condition()
}
