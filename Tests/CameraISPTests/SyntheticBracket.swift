import CameraCore
import CameraISP
import Foundation

/// Brackets rendered from a known linear scene through the simulated camera's sensor model: 6000 e⁻
/// full well at gain 1, 2.5 e⁻ read noise, shot noise, 12 bits on a black level of 256.
enum SyntheticBracket {
    static let calibration = RawCalibration(blackLevel: 256, whiteLevel: 4095)
    static let noise = NoiseProfile(fullWellElectrons: 6000, readNoiseElectrons: 2.5, analogueGain: 1)
    static let referenceExposure = 0.01

    /// A scene: the signal at pixel (x, y) in units of the reference frame's white.
    typealias Scene = @Sendable (_ x: Int, _ y: Int) -> Double

    /// One frame `ev` stops from the reference exposure; its sample at (x, y) sees `scene(x − shift.x, y − shift.y)`.
    static func frame(width: Int, height: Int, ev: Double, shift: BayerShift = .zero, seed: UInt64,
                      scene: Scene) throws -> BracketFrame {
        let buffer = try PixelBuffer(format: .bayer16(.rggb, significantBits: 12), width: width, height: height)
        var random = SplitMix64(seed: seed)
        let (fullWell, readNoise) = (6000.0, 2.5)
        let range = Double(calibration.whiteLevel - calibration.blackLevel)
        let relative = pow(2, ev)
        for y in 0..<height {
            for x in 0..<width {
                let electrons = max(scene(x - shift.x, y - shift.y), 0) * relative * fullWell
                let noisy = electrons + electrons.squareRoot() * gaussian(&random) + readNoise * gaussian(&random)
                let raw = Double(calibration.blackLevel) + (noisy / fullWell * range).rounded()
                buffer[sample16: x, y: y] = UInt16(min(max(raw, 0), Double(calibration.whiteLevel)))
            }
        }
        return BracketFrame(buffer: buffer, calibration: calibration, exposure: referenceExposure * relative, noise: noise)
    }

    /// A bracket at `evs`, each frame with its own scene (a moving subject) or shift (a moving camera).
    static func bracket(width: Int, height: Int, evs: [Double] = [-2, 0, 2], shifts: [BayerShift]? = nil,
                        seed: UInt64 = 1, scenes: [Scene]) throws -> [BracketFrame] {
        try evs.indices.map { index in
            try frame(width: width, height: height, ev: evs[index], shift: shifts?[index] ?? .zero,
                      seed: seed &+ UInt64(index) &* 7919, scene: scenes[index])
        }
    }

    /// A static bracket: every frame sees `scene`.
    static func bracket(width: Int, height: Int, evs: [Double] = [-2, 0, 2], seed: UInt64 = 1,
                        scene: @escaping Scene) throws -> [BracketFrame] {
        try bracket(width: width, height: height, evs: evs, seed: seed, scenes: evs.map { _ in scene })
    }

    /// The reference frame's sample at (x, y) in units of its white, black-subtracted.
    static func normalised(_ frame: BracketFrame, x: Int, y: Int) -> Double {
        Double(Int(frame.buffer[sample16: x, y: y]) - calibration.blackLevel) / Double(calibration.whiteLevel - calibration.blackLevel)
    }

    /// A standard normal deviate (Box–Muller).
    private static func gaussian(_ random: inout SplitMix64) -> Double {
        let u = Double.random(in: Double.ulpOfOne..<1, using: &random)
        let v = Double.random(in: 0..<1, using: &random)
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }
}

/// The mean and standard deviation of `values`.
func meanAndDeviation(_ values: [Double]) -> (mean: Double, deviation: Double) {
    let mean = values.reduce(0, +) / Double(values.count)
    let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)
    return (mean, variance.squareRoot())
}
