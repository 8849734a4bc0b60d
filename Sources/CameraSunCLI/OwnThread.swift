import Foundation

/// Runs blocking `work` (socket reads, waiting for a process) on a thread of its own and returns
/// its result, so that the wait never holds one of the concurrency pool's few threads — which the
/// viewfinder's handlers and every other task need.
func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result(catching: work)) }.start()
    }
}
