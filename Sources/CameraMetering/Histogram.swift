/// A 256-bin histogram of encoded (full-range) 8-bit luma.
public struct Histogram: Sendable, Hashable {
    public let counts: [Int]
    public let total: Int

    public init(counts: [Int]) {
        precondition(counts.count == 256, "a luma histogram has 256 bins")
        self.counts = counts
        total = counts.reduce(0, +)
    }

    /// The smallest encoded value v/255 such that at least `fraction` of the samples are ≤ v.
    public func percentile(_ fraction: Double) -> Double {
        guard total > 0 else { return 0 }
        let target = Double(total) * min(max(fraction, 0), 1)
        var cumulative = 0
        for (value, count) in counts.enumerated() {
            cumulative += count
            if Double(cumulative) >= target, cumulative > 0 { return Double(value) / 255 }
        }
        return 1
    }

    /// The fraction of samples in bins `range`.
    public func fraction(in range: ClosedRange<Int>) -> Double {
        total > 0 ? Double(counts[range].reduce(0, +)) / Double(total) : 0
    }
}
