@testable import CameraSunCLI
import Foundation

/// The `CLIError` that `body` throws, or nil when it returns normally (or throws something else).
func cliError<T>(_ body: () throws -> T) -> CLIError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error as? CLIError
    }
}

/// A JSON number (as `JSONSerialization` gives it) as a Double.
func jsonNumber(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }
