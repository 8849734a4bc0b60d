import Synchronization

/// The test seam of every system call: while a seam is installed (`run`), each call through
/// CameraSystem is recorded, and a failure scripted for it (`fail`) is returned instead of
/// calling the C function — a full disk on the next fsync, a refused open — without hardware.
///
/// The seam is task-local: it applies to the code `run` runs, synchronously or in child tasks,
/// and never to tests running beside it. Without one installed a call costs one task-local read.
public final class SystemCallSeam: Sendable {
    /// One attempt at a system call: the C function and the path it concerned.
    public struct Call: Hashable, Sendable, CustomStringConvertible {
        public let function: SystemFunction
        public let path: String?

        public init(_ function: SystemFunction, _ path: String?) {
            self.function = function
            self.path = path
        }

        public var description: String { "\(function.rawValue)(\(path ?? ""))" }
    }

    private struct ScriptedFailure {
        let function: SystemFunction
        let pathFragment: String?
        let errno: Errno
        var remaining: Int
    }

    private struct State {
        var calls: [Call] = []
        var failures: [ScriptedFailure] = []
    }

    @TaskLocal static var current: SystemCallSeam?

    private let state = Mutex(State())

    public init() {}

    /// Makes the next `times` calls of `function` fail with `errno` — only those whose path
    /// contains `pathFragment` when one is given. Scripted failures are used in the order given.
    public func fail(_ function: SystemFunction, with errno: Errno, times: Int = 1, pathContaining pathFragment: String? = nil) {
        state.withLock {
            $0.failures.append(ScriptedFailure(function: function, pathFragment: pathFragment, errno: errno, remaining: times))
        }
    }

    /// Every call attempted so far, in order, failed ones included.
    public var calls: [Call] { state.withLock { $0.calls } }

    /// The calls attempted so far of the given functions, in order.
    public func calls(of functions: Set<SystemFunction>) -> [Call] {
        calls.filter { functions.contains($0.function) }
    }

    /// Runs `body` with this seam installed for the current task.
    public func run<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        let outcome = Self.$current.withValue(self) { Swift.Result { () throws(Failure) in try body() } }
        return try outcome.get()
    }

    /// Records a call of `function` on `path` and returns the failure scripted for it, if any.
    func intercept(_ function: SystemFunction, path: String?) -> Errno? {
        state.withLock { state in
            state.calls.append(Call(function, path))
            guard let index = state.failures.firstIndex(where: { failure in
                failure.function == function && failure.remaining > 0
                    && (failure.pathFragment.map { fragment in path?.contains(fragment) ?? false } ?? true)
            }) else { return nil }
            state.failures[index].remaining -= 1
            return state.failures[index].errno
        }
    }
}
