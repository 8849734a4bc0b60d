/// Why a benchmark could not measure: what failed, then " — " and what to do.
public struct BenchmarkError: Error, Equatable, CustomStringConvertible {
    public let message: String

    init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
