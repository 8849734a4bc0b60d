import Foundation

/// Runs blocking `work` (socket reads, file writes, waiting for a process) on a thread of its own
/// and returns its result, so that the wait never holds one of the concurrency pool's few
/// threads — which every other task needs. The one way the package takes blocking work off the
/// pool; `work`'s error passes through with its type.
public func onOwnThread<T: Sendable, Failure: Error>(
    _ work: @escaping @Sendable () throws(Failure) -> T
) async throws(Failure) -> T {
    let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, Failure>, Never>) in
        Thread { continuation.resume(returning: Result(catching: work)) }.start()
    }
    return try result.get()
}
