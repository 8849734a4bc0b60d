import CameraCore
import Dispatch
import Foundation

/// Ctrl-C (SIGINT) and SIGTERM as the normal ways to stop a live command: the work is cancelled
/// and the command ends cleanly — a recording is finished and saved — instead of dying mid-line.
///
/// Only the first signal stops the work. Once the handlers are installed they stay for the rest
/// of the process: a second Ctrl-C, or the second SIGTERM that `timeout` sends (to the process and
/// to its group), arriving while the take is being finished is ignored with a line saying so —
/// restoring the default action there would kill the process with its take half saved.
enum Interrupt {
    /// The signals that stop a live command.
    enum Signal: Sendable, Equatable {
        case interrupt, terminate

        fileprivate var number: Int32 { self == .interrupt ? SIGINT : SIGTERM }
        fileprivate var name: String { self == .interrupt ? "Ctrl-C" : "SIGTERM" }
    }

    /// How a live command's work ended.
    enum Outcome<Value: Sendable>: Sendable {
        case finished(Value)
        case signalled(Signal)

        var signal: Signal? {
            if case .signalled(let signal) = self { signal } else { nil }
        }
    }

    /// What a signal does: stop the running work, or, once it is being finished, print a line.
    private enum Phase {
        case running(stop: @Sendable (Signal) -> Void, finishing: String)
        case finishing(String)
    }

    /// The process's handlers, installed by the first `runUntilSignalled` and never removed.
    private struct Handlers {
        var sources: [any DispatchSourceSignal] = []
        var phase: Phase?
        var terminal: Terminal?
    }

    private static let handlers = Locked(Handlers())

    /// Runs `work` until it finishes or a signal cancels it. `finishing` names what the command does
    /// after that ("saving the take"): the line a further signal prints while it does so.
    static func runUntilSignalled<Value: Sendable>(finishing: String, terminal: Terminal,
                                                   _ work: @escaping @Sendable () async throws -> Value) async throws -> Outcome<Value> {
        let task = Task { try await work() }
        let (received, arrival) = AsyncStream.makeStream(of: Signal.self)
        install(.running(stop: { signal in
            arrival.yield(signal)
            task.cancel()
        }, finishing: finishing), terminal: terminal)
        defer { handlers.withLock { $0.phase = .finishing(finishing) } }
        do {
            return .finished(try await task.value)
        } catch is CancellationError {
            arrival.finish()
            for await signal in received { return .signalled(signal) }
            return .signalled(.interrupt)
        }
    }

    /// Sets what the next signal does, installing the handlers on the first call.
    private static func install(_ phase: Phase, terminal: Terminal) {
        handlers.withLock { handlers in
            handlers.phase = phase
            handlers.terminal = terminal
            guard handlers.sources.isEmpty else { return }
            handlers.sources = [Signal.interrupt, .terminate].map { signal in
                Foundation.signal(signal.number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: signal.number, queue: .global())
                // Signals that arrive before the handler runs are counted in `data`, not delivered one by
                // one. The source is kept for the life of the process, so the cycle is never broken.
                source.setEventHandler {
                    for _ in 0..<max(source.data, 1) { deliver(signal) }
                }
                source.resume()
                return source
            }
        }
    }

    /// The first signal stops the work; later ones only say that the command is finishing.
    private static func deliver(_ signal: Signal) {
        let (phase, terminal) = handlers.withLock { handlers -> (Phase?, Terminal?) in
            let phase = handlers.phase
            if case .running(_, let finishing) = phase { handlers.phase = .finishing(finishing) }
            return (phase, handlers.terminal)
        }
        switch phase {
        case .running(let stop, _): stop(signal)
        case .finishing(let finishing):
            terminal?.error("camerasun: \(signal.name) ignored — still \(finishing), which ends by itself in a moment")
        case nil: break
        }
    }
}
