import CameraCore
@testable import CameraISP
import Foundation

/// Raw frames of a known scene with the simulated camera's sensor noise (6000 e⁻ full well at gain 1,
/// 2.5 e⁻ read noise, shot noise, 12 bits on a black level of 256), their calibration saying so:
/// what the denoiser is measured on.
enum NoisyFrames {
    static let sensor = SensorNoise(fullWellElectrons: 6000, readNoiseElectrons: 2.5)
    static let calibration = RawCalibration(blackLevel: 256, whiteLevel: 4095, noise: sensor)

    /// A frame whose camera RGB (1 = white level) at (x, y) is `camera(x, y)`, at analogue gain
    /// `gain`, noise drawn from `seed`.
    static func raw(width: Int, height: Int, gain: Double = 1, seed: UInt64 = 1,
                    camera: (_ x: Int, _ y: Int) -> SIMD3<Double>) throws -> Frame {
        let buffer = try PixelBuffer(format: .bayer16(.rggb, significantBits: 12), width: width, height: height)
        var random = SplitMix64(seed: seed)
        let fullWell = sensor.fullWellElectrons / gain, read = sensor.readNoiseElectrons
        let range = Double(calibration.whiteLevel - calibration.blackLevel)
        for y in 0..<height {
            for x in 0..<width {
                let rgb = camera(x, y)
                let value = switch (x.isMultiple(of: 2), y.isMultiple(of: 2)) {
                case (true, true): rgb.x
                case (false, false): rgb.z
                default: rgb.y
                }
                let electrons = max(value, 0) * fullWell
                let noisy = electrons + electrons.squareRoot() * gaussian(&random) + read * gaussian(&random)
                let raw = Double(calibration.blackLevel) + (noisy / fullWell * range).rounded()
                buffer[sample16: x, y: y] = UInt16(min(max(raw, 0), Double(calibration.whiteLevel)))
            }
        }
        let metadata = FrameMetadata(exposureDuration: .zero, analogueGain: gain, baseISO: 50, rawCalibration: calibration)
        return Frame(buffer: buffer, presentationTime: .zero, sequenceNumber: seed, metadata: metadata)
    }

    /// `frame` developed by a pipeline that denoises as `denoising` says.
    static func developed(_ frame: Frame, _ denoising: Denoising) throws -> LinearImage {
        var pipeline = ImagePipeline(denoising: denoising)
        try pipeline.develop(frame)
        return pipeline.developed
    }

    /// Statistics of luma and of the two colour differences (B − Y, R − Y) over the pixels in `region`.
    static func statistics(_ image: LinearImage, _ region: (x: Range<Int>, y: Range<Int>))
        -> (luma: (mean: Double, deviation: Double), blue: (mean: Double, deviation: Double), red: (mean: Double, deviation: Double)) {
        var luma: [Double] = [], blue: [Double] = [], red: [Double] = []
        for y in region.y {
            for x in region.x {
                let p = SIMD3<Double>(image[x, y])
                let l = 0.2126 * p.x + 0.7152 * p.y + 0.0722 * p.z
                luma.append(l)
                blue.append(p.z - l)
                red.append(p.x - l)
            }
        }
        return (meanAndDeviation(luma), meanAndDeviation(blue), meanAndDeviation(red))
    }

    private static func gaussian(_ random: inout SplitMix64) -> Double {
        let u = Double.random(in: Double.ulpOfOne..<1, using: &random)
        let v = Double.random(in: 0..<1, using: &random)
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }
}
