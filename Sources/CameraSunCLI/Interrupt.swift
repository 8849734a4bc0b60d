import Dispatch
import Foundation

/// Ctrl-C as the normal way to stop a live command: the work is cancelled and the command ends
/// cleanly instead of dying mid-line.
enum Interrupt {
    /// Runs `work` until it finishes or the user presses Ctrl-C (SIGINT), which cancels it.
    /// Returns true when it was interrupted.
    static func runUntilInterrupted(_ work: @escaping @Sendable () async throws -> Void) async throws -> Bool {
        let task = Task { try await work() }
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler { task.cancel() }
        source.resume()
        defer {
            source.cancel()
            signal(SIGINT, SIG_DFL)
        }
        do {
            try await task.value
            return false
        } catch is CancellationError {
            return true
        }
    }
}
