import Foundation

/// Deterministic Gaussian noise for the sensor: a fixed table of standard normal deviates indexed
/// by a fast per-frame random stream, so the same seed and frame give the same bytes.
struct NoiseSource {
    /// 65 536 standard normal deviates (Box–Muller from a fixed SplitMix64 stream).
    static let table: [Float] = {
        var rng = SplitMix64(seed: 0x5EED_CA3E_7A5C_0001)
        var values = [Float]()
        values.reserveCapacity(65536)
        while values.count < 65536 {
            let u1 = max(Double(rng.next() >> 11) / Double(1 << 53), .leastNonzeroMagnitude)
            let u2 = Double(rng.next() >> 11) / Double(1 << 53)
            let radius = (-2 * log(u1)).squareRoot()
            values.append(Float(radius * cos(2 * .pi * u2)))
            values.append(Float(radius * sin(2 * .pi * u2)))
        }
        return values
    }()

    /// The random state for frame `frame` of a camera seeded with `seed`.
    static func stream(seed: UInt64, frame: UInt64) -> SplitMix64 {
        var mixer = SplitMix64(seed: seed ^ (frame &* 0x9E37_79B9_7F4A_7C15))
        return SplitMix64(seed: mixer.next())
    }
}

/// SplitMix64: a small, fast, well-mixed 64-bit generator (Steele, Lea & Flood 2014).
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
