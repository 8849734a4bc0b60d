import CameraCore
import Foundation

/// Deterministic sensor noise: the same seed and frame give the same bytes.
///
/// Standard normal deviates come from a fixed table; each row of each frame reads the table from
/// a random offset drawn from a SplitMix64 stream of the seed and frame number, so rows and frames
/// get different noise while eight samples load their deviates at once.
enum NoiseSource {
    /// Table length (a power of two) and the margin past it a row may read.
    static let tableSize = 1 << 18
    static let margin = 4 * 4096

    /// 2^18 + margin standard normal deviates (Box–Muller from a fixed SplitMix64 stream).
    static let deviates: [Float] = {
        var rng = SplitMix64(seed: 0x5EED_CA3E_7A5C_0001)
        var values = [Float]()
        values.reserveCapacity(tableSize + margin)
        while values.count < tableSize + margin {
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

    /// Where the next row starts reading the deviate table.
    static func rowOffset(_ rng: inout SplitMix64) -> Int {
        Int(truncatingIfNeeded: rng.next() & UInt64(tableSize - 1))
    }
}

/// Photon shot noise and read noise at one analogue gain, eight samples at a time.
struct NoiseModel {
    /// Raw units per electron.
    let rawPerElectron: Float
    /// Read-noise variance in raw units².
    let readVariance: Float

    /// Noisy, clipped, quantised raw values of `mean` raw values of signal on a `pedestal` (the
    /// black level): pedestal + mean + σ·deviate with σ² = k·min(mean, white) + (k·read)².
    @inline(__always)
    func quantize(_ mean: SIMD8<Float>, deviates: SIMD8<Float>, pedestal: Float = 0) -> SIMD8<Int32> {
        let white = SIMD8<Float>(repeating: Float(SensorModel.whiteLevel))
        let variance = mean.replacing(with: white, where: mean .> white) * rawPerElectron + readVariance
        // σ = variance · 1/√variance; the reciprocal root from the bit-level estimate and one
        // Newton step (0.2% error), as Swift's SIMD squareRoot() compiles to scalar code here.
        var reciprocal = unsafeBitCast(0x5F37_59DF &- (unsafeBitCast(variance, to: SIMD8<UInt32>.self) &>> 1), to: SIMD8<Float>.self)
        reciprocal = reciprocal * (1.5 - 0.5 * variance * reciprocal * reciprocal)
        var noisy = pedestal + mean + variance * reciprocal * deviates
        // `.!(noisy .>= 0)` also catches NaN (from an exposure of no time at all), which would
        // otherwise become an index far outside the output tables.
        noisy.replace(with: 0, where: .!(noisy .>= 0))
        noisy.replace(with: white, where: noisy .> white)
        // Adding 1.5·2²³ leaves round(noisy) in the low mantissa bits: a rounding that vectorises.
        return unsafeBitCast(noisy + 12_582_912, to: SIMD8<Int32>.self) &- 0x4B40_0000
    }
}
