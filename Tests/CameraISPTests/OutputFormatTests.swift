import CameraCore
@testable import CameraISP
import Testing

@Suite("Output formats")
struct OutputFormatTests {
    static let formats: [PixelFormat] = [.bgra8, .nv12(.video), .nv12(.full), .yuyv422, .gray8]

    @Test("a colour patch rendered without gain reads back as its sRGB value", arguments: formats)
    func colourPatch(format: PixelFormat) throws {
        let colour = SIMD3<Float>(0.2, 0.4, 0.1)
        var pipeline = SyntheticFrames.pipeline(width: 16, height: 16) { _, _ in colour }
        let pixel = try SyntheticFrames.render(&pipeline, .none, .global, format: format).rgb(8, 8)
        let expected = SIMD3(SyntheticFrames.srgb8(0.2), SyntheticFrames.srgb8(0.4), SyntheticFrames.srgb8(0.1))
        if format == .gray8 {
            let luma = Int(BT709.luma8(red: UInt8(expected.x), green: UInt8(expected.y), blue: UInt8(expected.z)))
            #expect(abs(pixel.x - luma) <= 1 && pixel.y == pixel.x && pixel.z == pixel.x, "\(pixel)")
        } else {
            // Y'CbCr in 8 bits is within two code values of the R'G'B' it came from.
            #expect(largestDifference(pixel, expected) <= 2, "\(pixel) against \(expected)")
        }
    }

    @Test("a processed frame developed and rendered without gain keeps its pixels", arguments: formats)
    func processedRoundTrip(format: PixelFormat) throws {
        var pipeline = SyntheticFrames.pipeline(width: 16, height: 16) { x, _ in
            x < 8 ? SIMD3(0.18, 0.18, 0.18) : SIMD3(0.5, 0.1, 0.3)
        }
        let original = try SyntheticFrames.render(&pipeline, .none, .global, format: format)
        // Denoising off: the two colours have nearly the same luma, and chroma is smoothed across such an edge.
        pipeline.denoising = .off
        try pipeline.develop(SyntheticFrames.frame(original))
        let again = try SyntheticFrames.render(&pipeline, .none, .global, format: format)
        for x in [2, 12] {
            #expect(largestDifference(again.rgb(x, 8), original.rgb(x, 8)) <= 1, "column \(x): \(again.rgb(x, 8)) against \(original.rgb(x, 8))")
        }
    }

    @Test("sizes that are not multiples of the vector width render every pixel",
          arguments: [(PixelFormat.bgra8, 13, 7), (.gray8, 13, 7), (.yuyv422, 14, 7), (.nv12(.video), 22, 10)])
    func oddSizes(format: PixelFormat, width: Int, height: Int) throws {
        var pipeline = SyntheticFrames.pipeline(width: width, height: height) { _, _ in SIMD3(repeating: 0.01) }
        let output = try SyntheticFrames.render(&pipeline, RenderGain(subjectLevel: 0.01, ev: 4), format: format)
        let target = SyntheticFrames.srgb8(0.16)
        for (x, y) in [(0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1)] {
            #expect(abs(output.rgb(x, y).y - target) <= 2, "(\(x), \(y)): \(output.rgb(x, y))")
        }
    }

    @Test("the metering view is the developed frame without gain")
    func meteringView() throws {
        var pipeline = SyntheticFrames.pipeline(width: 16, height: 16) { _, _ in SIMD3(repeating: 0.05) }
        let output = try PixelBuffer(format: .bgra8, width: 16, height: 16)
        try pipeline.renderMeteringView(into: output)
        #expect(output.rgb(4, 4) == SIMD3(repeating: SyntheticFrames.srgb8(0.05)))
    }

    @Test("bayer16 is not an output format")
    func bayerOutput() throws {
        var pipeline = SyntheticFrames.pipeline(width: 16, height: 16) { _, _ in .zero }
        let output = try PixelBuffer(format: .bayer16(.rggb, significantBits: 12), width: 16, height: 16)
        #expect(throws: ISPError.unsupportedOutputFormat(output.format)) { try pipeline.render(.none, into: output) }
    }

    @Test("an output of another size is an error")
    func sizeMismatch() throws {
        var pipeline = SyntheticFrames.pipeline(width: 16, height: 16) { _, _ in .zero }
        let output = try PixelBuffer(format: .bgra8, width: 32, height: 16)
        #expect(throws: ISPError.sizeMismatch(output: PixelSize(width: 32, height: 16), developed: PixelSize(width: 16, height: 16))) {
            try pipeline.render(.none, into: output)
        }
    }
}
