import Dispatch
import Foundation

/// Ctrl-C (SIGINT) and SIGTERM as the normal ways to stop a live command: the work is cancelled
/// and the command ends cleanly — a recording is finished and saved — instead of dying mid-line.
enum Interrupt {
    /// The signals that stop a live command.
    enum Signal: Sendable, Equatable {
        case interrupt, terminate

        fileprivate var number: Int32 { self == .interrupt ? SIGINT : SIGTERM }
    }

    /// How a live command's work ended.
    enum Outcome<Value: Sendable>: Sendable {
        case finished(Value)
        case signalled(Signal)

        var signal: Signal? {
            if case .signalled(let signal) = self { signal } else { nil }
        }
    }

    /// Runs `work` until it finishes or a signal cancels it.
    static func runUntilSignalled<Value: Sendable>(_ work: @escaping @Sendable () async throws -> Value) async throws -> Outcome<Value> {
        let task = Task { try await work() }
        let (received, arrival) = AsyncStream.makeStream(of: Signal.self)
        let sources = [Signal.interrupt, .terminate].map { signal in
            Foundation.signal(signal.number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signal.number, queue: .global())
            source.setEventHandler {
                arrival.yield(signal)
                task.cancel()
            }
            source.resume()
            return (signal, source)
        }
        defer {
            for (signal, source) in sources {
                source.cancel()
                Foundation.signal(signal.number, SIG_DFL)
            }
        }
        do {
            return .finished(try await task.value)
        } catch is CancellationError {
            arrival.finish()
            for await signal in received { return .signalled(signal) }
            return .signalled(.interrupt)
        }
    }
}
