import CameraCore
@testable import CameraISP

/// Frames and images built by hand for the pipeline's tests.
enum SyntheticFrames {
    static let calibration = RawCalibration(blackLevel: 64, whiteLevel: 4095)

    /// A 12-bit mosaic in `pattern` whose camera RGB (black-subtracted, 1 = white level, before
    /// white balance) at each pixel is `camera(x, y)`; values at or above 1 are written at the white level.
    static func raw(width: Int, height: Int, pattern: BayerPattern = .rggb, calibration: RawCalibration? = calibration,
                    gains: WhiteBalanceGains = .unity, digitalGain: Double = 1,
                    camera: (_ x: Int, _ y: Int) -> SIMD3<Double>) throws -> Frame {
        let buffer = try PixelBuffer(format: .bayer16(pattern, significantBits: 12), width: width, height: height)
        let levels = calibration ?? SyntheticFrames.calibration
        for y in 0..<height {
            for x in 0..<width {
                let rgb = camera(x, y)
                let value = switch ((x + pattern.redSite.x).isMultiple(of: 2), (y + pattern.redSite.y).isMultiple(of: 2)) {
                case (true, true): rgb.x
                case (false, false): rgb.z
                default: rgb.y
                }
                let range = Double(levels.whiteLevel - levels.blackLevel)
                buffer[sample16: x, y: y] = UInt16(Double(levels.blackLevel) + (min(max(value, 0), 1) * range).rounded())
            }
        }
        let metadata = FrameMetadata(exposureDuration: .zero, analogueGain: 1, baseISO: 50, digitalGain: digitalGain,
                                     whiteBalanceGains: gains, rawCalibration: calibration)
        return Frame(buffer: buffer, presentationTime: .zero, sequenceNumber: 0, metadata: metadata)
    }

    /// A processed frame: `buffer` with default metadata.
    static func frame(_ buffer: PixelBuffer) -> Frame {
        Frame(buffer: buffer, presentationTime: .zero, sequenceNumber: 0,
              metadata: FrameMetadata(exposureDuration: .zero, analogueGain: 1, baseISO: 50))
    }

    /// A pipeline whose developed frame is the linear RGB `linear(x, y)`.
    static func pipeline(width: Int, height: Int, linear: (_ x: Int, _ y: Int) -> SIMD3<Float>) -> ImagePipeline {
        var image = LinearImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width { image[x, y] = linear(x, y) }
        }
        image.fillPadding()
        var pipeline = ImagePipeline()
        pipeline.developed = image
        return pipeline
    }

    /// `pipeline.developed` rendered into a new buffer of `format`.
    static func render(_ pipeline: inout ImagePipeline, _ gain: RenderGain, _ toneMapping: ToneMapping = .local,
                       format: PixelFormat = .bgra8) throws -> PixelBuffer {
        let output = try PixelBuffer(format: format, width: pipeline.developed.width, height: pipeline.developed.height)
        try pipeline.render(gain, toneMapping: toneMapping, into: output)
        return output
    }

    /// The 8-bit sRGB value of linear `value`.
    static func srgb8(_ value: Double) -> Int {
        Int((SRGB.encode(value) * 255).rounded())
    }
}

extension PixelBuffer {
    /// R'G'B' of pixel (`x`, `y`) as integers.
    func rgb(_ x: Int, _ y: Int) -> SIMD3<Int> {
        let pixel = pixelReader()!.pixel(x: x, y: y)
        return SIMD3(Int(pixel.red), Int(pixel.green), Int(pixel.blue))
    }

    /// The linear luminance of pixel (`x`, `y`), from its sRGB bytes.
    func linearLuminance(_ x: Int, _ y: Int) -> Double {
        let rgb = self.rgb(x, y)
        let linear = SIMD3(SRGB.decode(Double(rgb.x) / 255), SRGB.decode(Double(rgb.y) / 255), SRGB.decode(Double(rgb.z) / 255))
        return 0.2126 * linear.x + 0.7152 * linear.y + 0.0722 * linear.z
    }
}

/// The largest difference between the channels of `a` and `b`.
func largestDifference(_ a: SIMD3<Int>, _ b: SIMD3<Int>) -> Int {
    max(abs(a.x - b.x), abs(a.y - b.y), abs(a.z - b.z))
}

/// The largest difference between the channels of `a` and `b`.
func largestDifference(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
    max(abs(a.x - b.x), abs(a.y - b.y), abs(a.z - b.z))
}
