import CameraCore
import CameraTestSupport
import Foundation

/// A program launched for `bench startup`, timed from its launch; its standard error goes to a
/// log file, quoted when it fails.
struct TimedLaunch {
    let name: String
    let process: SpawnedProcess
    private let start: ContinuousClock.Instant
    private let log: URL

    /// Launches `executable arguments`; `name` says what it is in messages.
    init(_ name: String, _ executable: String, _ arguments: [String], log: URL) throws {
        self.name = name
        self.log = log
        start = .now
        process = try SpawnedProcess(executable, arguments, errors: log.path)
    }

    /// Seconds from the launch until `arrived` holds, polled every 5 ms on a thread of its own;
    /// throws when the process exits first or nothing arrives within `StartupBenchmark.timeout`.
    func seconds(until arrived: @escaping @Sendable () throws -> Bool) async throws -> Double {
        let (process, start, name, log) = (process, start, name, log)
        return try await onOwnThread { () throws -> Double in
            while true {
                if try arrived() { return (ContinuousClock.now - start).seconds }
                guard process.isRunning else {
                    throw BenchmarkError("\(name) ended (\(process.termination)) before its first frame: \(Self.tail(of: log)) — run make build")
                }
                guard ContinuousClock.now - start < StartupBenchmark.timeout else {
                    throw BenchmarkError("\(name) had no first frame within \(StartupBenchmark.timeout) — the machine is too busy; run the benchmark again")
                }
                Thread.sleep(forTimeInterval: 0.005)
            }
        }
    }

    /// Seconds from the launch until the process exits, which it must do with status 0.
    func secondsToExit() async throws -> Double {
        let process = process
        let seconds = try await self.seconds { !process.isRunning }
        guard process.termination == "exit status 0" else {
            throw BenchmarkError("\(name) failed (\(process.termination)): \(Self.tail(of: log)) — run make build")
        }
        return seconds
    }

    /// The last lines of the log.
    private static func tail(of log: URL) -> String {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(5).joined(separator: "\n")
    }
}
