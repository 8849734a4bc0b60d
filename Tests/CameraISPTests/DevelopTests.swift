import CameraCore
@testable import CameraISP
import Testing

@Suite("Developing bayer16 frames")
struct DevelopTests {
    @Test("a grey card at 0.18 · 2⁻³ lifted by 3 EV renders at mid-grey", arguments: ToneMapping.allCases)
    func greyCard(toneMapping: ToneMapping) throws {
        let level = 0.18 / 8
        var pipeline = ImagePipeline()
        try pipeline.develop(SyntheticFrames.raw(width: 64, height: 48) { _, _ in SIMD3(repeating: level) })
        let output = try SyntheticFrames.render(&pipeline, RenderGain(subjectLevel: level, ev: 3), toneMapping)
        let pixel = output.rgb(31, 23)
        #expect(abs(pixel.y - 118) <= 2 && pixel.x == pixel.y && pixel.z == pixel.y, "\(pixel)")
    }

    @Test("each Bayer order develops a smooth colour gradient to its true colours", arguments: BayerPattern.allCases)
    func orders(pattern: BayerPattern) throws {
        // Bilinear interpolation is exact on a linear gradient, so inside the edges only rounding is left.
        // Denoising off: this is the demosaic alone (a 32×24 frame is all border to the denoiser's windows).
        func truth(_ x: Int, _ y: Int) -> SIMD3<Double> { SIMD3(0.2 + 0.01 * Double(x), 0.5, 0.7 - 0.01 * Double(y)) }
        var pipeline = ImagePipeline(denoising: .off)
        try pipeline.develop(SyntheticFrames.raw(width: 32, height: 24, pattern: pattern, camera: truth))
        var worst: Float = 0
        for y in 1..<23 {
            for x in 1..<31 {
                let error = pipeline.developed[x, y] - SIMD3<Float>(truth(x, y))
                worst = max(worst, error.max(), -error.min())
            }
        }
        #expect(worst < 0.001, "\(pattern): off by \(worst)")
    }

    @Test("a frame at the black level renders black, whatever the lift")
    func blackLevel() throws {
        var pipeline = ImagePipeline()
        try pipeline.develop(SyntheticFrames.raw(width: 32, height: 32) { _, _ in .zero })
        #expect(pipeline.developed[16, 16] == .zero)
        let output = try SyntheticFrames.render(&pipeline, RenderGain(subjectLevel: 0.01, ev: 5))
        #expect(output.rgb(16, 16) == .zero)
    }

    @Test("white-balance gains that invert the light neutralise a grey card", arguments: [2800.0, 7500.0])
    func whiteBalance(kelvin: Double) throws {
        // The light's Rec. 709 colour is what an identity-matrix camera records off a grey card.
        let light = ColorTemperature(kelvin).relativeRGB
        let card = light * (0.3 / light.max())
        let gains = WhiteBalanceGains(red: light.y / light.x, green: 1, blue: light.y / light.z)
        var pipeline = ImagePipeline()
        try pipeline.develop(SyntheticFrames.raw(width: 32, height: 32, gains: gains) { _, _ in card })
        let pixel = try SyntheticFrames.render(&pipeline, .none, .global).rgb(16, 16)
        #expect(abs(pixel.x - pixel.y) <= 1 && abs(pixel.z - pixel.y) <= 1, "\(pixel) at \(kelvin) K")
        #expect(abs(pixel.y - SyntheticFrames.srgb8(card.y)) <= 1)
    }

    @Test("the colour matrix maps a camera colour to its Rec. 709 value")
    func colorMatrix() throws {
        let matrix = [1.7, -0.5, -0.2, -0.3, 1.6, -0.3, 0.1, -0.6, 1.5]
        let calibration = RawCalibration(blackLevel: 256, whiteLevel: 4095, colorMatrix: matrix)
        let camera = SIMD3(0.30, 0.25, 0.12)
        var pipeline = ImagePipeline()
        try pipeline.develop(SyntheticFrames.raw(width: 16, height: 16, calibration: calibration) { _, _ in camera })
        let expected = SIMD3(
            matrix[0] * camera.x + matrix[1] * camera.y + matrix[2] * camera.z,
            matrix[3] * camera.x + matrix[4] * camera.y + matrix[5] * camera.z,
            matrix[6] * camera.x + matrix[7] * camera.y + matrix[8] * camera.z)
        let pixel = pipeline.developed[7, 8]
        let developed = SIMD3(Double(pixel.x), Double(pixel.y), Double(pixel.z))
        // One raw step is 1/3839; the matrix's largest row sum of magnitudes is 2.4.
        #expect(largestDifference(developed, expected) < 1e-3, "\(developed) against \(expected)")
    }

    @Test("white balance and digital gain scale the channels, and the clip level follows them")
    func gains() throws {
        let gains = WhiteBalanceGains(red: 2, green: 1.25, blue: 1.5)
        var pipeline = ImagePipeline()
        try pipeline.develop(SyntheticFrames.raw(width: 16, height: 16, gains: gains, digitalGain: 2) { _, _ in SIMD3(0.1, 0.2, 0.1) })
        let developed = pipeline.developed[8, 8]
        #expect(abs(developed.x - 0.4) < 1e-3 && abs(developed.y - 0.5) < 1e-3 && abs(developed.z - 0.3) < 1e-3, "\(developed)")
        #expect(pipeline.developed.clipLevel == 2.5)
    }

    @Test("clipped highlights render white, not magenta")
    func clippedHighlights() throws {
        // Strong red and blue gains: unclipped, a blown pixel would be (2, 1, 1.6) × the tone curve's cut.
        let gains = WhiteBalanceGains(red: 2, green: 1, blue: 1.6)
        var pipeline = ImagePipeline()
        try pipeline.develop(SyntheticFrames.raw(width: 64, height: 64, gains: gains) { x, _ in
            x < 32 ? SIMD3(0.01, 0.02, 0.012) : SIMD3(repeating: 1)
        })
        let developed = pipeline.developed[48, 32]
        #expect(developed.x == developed.y && developed.z == developed.y, "\(developed)")
        for toneMapping in ToneMapping.allCases {
            let pixel = try SyntheticFrames.render(&pipeline, RenderGain(subjectLevel: 0.02, ev: 3), toneMapping).rgb(56, 32)
            #expect(pixel == SIMD3(repeating: 255), "\(pixel) with \(toneMapping) tone mapping")
        }
    }

    @Test("a mosaic whose width is not a multiple of 8 develops to its edges")
    func oddWidth() throws {
        var pipeline = ImagePipeline()
        try pipeline.develop(SyntheticFrames.raw(width: 14, height: 6) { _, _ in SIMD3(0.2, 0.3, 0.4) })
        for x in [0, 13] {
            let pixel = pipeline.developed[x, 5]
            #expect(abs(pixel.x - 0.2) < 1e-3 && abs(pixel.y - 0.3) < 1e-3 && abs(pixel.z - 0.4) < 1e-3, "column \(x): \(pixel)")
        }
    }

    @Test("a white level beyond the frame's significant bits is an error")
    func whiteLevelOutOfRange() throws {
        let buffer = try PixelBuffer(format: .bayer16(.rggb, significantBits: 10), width: 8, height: 8)
        let metadata = FrameMetadata(exposureDuration: .zero, analogueGain: 1, baseISO: 50, rawCalibration: SyntheticFrames.calibration)
        var pipeline = ImagePipeline()
        #expect(throws: ISPError.whiteLevelOutOfRange(whiteLevel: 4095, significantBits: 10)) {
            try pipeline.develop(Frame(buffer: buffer, presentationTime: .zero, sequenceNumber: 0, metadata: metadata))
        }
    }

    @Test("a raw frame without a calibration is an error naming what is missing")
    func missingCalibration() throws {
        var pipeline = ImagePipeline()
        let frame = try SyntheticFrames.raw(width: 8, height: 8, calibration: nil) { _, _ in .zero }
        #expect(throws: ISPError.missingRawCalibration(frame.buffer.format)) { try pipeline.develop(frame) }
        #expect(ISPError.missingRawCalibration(frame.buffer.format).description.contains("rawCalibration"))
    }
}
