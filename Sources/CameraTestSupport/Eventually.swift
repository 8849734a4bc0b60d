/// Polls `condition` every 20 ms until it holds or `timeout` passes; returns whether it held. For
/// waiting on a state that no event announces (a client count, a connection count, a field of
/// `/state`). The timeout
/// only bounds a wait for something that never comes, so it is long enough for a busy machine:
/// it is no claim about how fast the condition should come.
public func eventually(timeout: Duration = .seconds(30), _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try await Task.sleep(for: .milliseconds(20))
    }
    return try await condition()
}
