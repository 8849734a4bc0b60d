@testable import CameraSunCLI

/// The `CLIError` that `body` throws, or nil when it returns normally (or throws something else).
func cliError<T>(_ body: () throws -> T) -> CLIError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error as? CLIError
    }
}
