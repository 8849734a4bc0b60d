/// The middle of `values` once sorted, the mean of the two middle ones for an even count; 0 for none.
public func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    let middle = sorted.count / 2
    return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
}

/// The `fraction` (0…1) quantile of `values`: once sorted, the value with ⌊count × fraction⌋
/// values below it (the largest for 1), so the 0.5 quantile of an even count is the upper of the
/// two middle values; nil for none. Inlinable, so that each caller sorts its own type without
/// generic dispatch (the metering pass takes ring medians every frame).
@inlinable
public func quantile<Value: Comparable>(_ values: [Value], _ fraction: Double) -> Value? {
    guard !values.isEmpty else { return nil }
    let index = Int(Double(values.count) * min(max(fraction, 0), 1))
    return values.sorted()[min(values.count - 1, index)]
}

/// The weighted `fraction` (0…1) quantile: once sorted by value, the first value at which the
/// running sum of weights reaches `fraction` of their total; nil when no weight is positive.
public func weightedQuantile(_ values: [(value: Double, weight: Double)], _ fraction: Double) -> Double? {
    let sorted = values.sorted { $0.value < $1.value }
    let total = sorted.reduce(0) { $0 + $1.weight }
    guard total > 0 else { return nil }
    var cumulative = 0.0
    for entry in sorted {
        cumulative += entry.weight
        if cumulative >= fraction * total { return entry.value }
    }
    return sorted.last?.value
}
