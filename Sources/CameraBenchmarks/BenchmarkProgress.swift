/// Where a long benchmark says what it is doing: each line replaces the one before, nil clears it.
public struct BenchmarkProgress: Sendable {
    private let report: @Sendable (String?) -> Void

    public init(_ report: @escaping @Sendable (String?) -> Void) {
        self.report = report
    }

    /// Reports nothing.
    public static let silent = BenchmarkProgress { _ in }

    func show(_ line: String) {
        report(line)
    }

    func clear() {
        report(nil)
    }
}
