import Foundation

/// Runs blocking work (socket clients, a paced publisher) on a thread of its own, so that it never
/// occupies the concurrency pool that a server's handlers run on.
public func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
