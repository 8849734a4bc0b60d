import CameraCore
@testable import CameraMetering
import Testing

/// The formats FrameAnalyzer reads, each with a stable label for test arguments.
let analyzableFormats: [PixelFormat] = [.bgra8, .gray8, .nv12(.full), .nv12(.video), .yuyv422]

@Suite("FrameAnalyzer on uniform frames")
struct UniformFrameTests {
    static let values: [UInt8] = [0, 1, 5, 6, 10, 16, 17, 64, 118, 128, 200, 235, 236, 249, 250, 255]

    @Test("A uniform frame has the exact brightness, linear mean and a single-bin histogram",
          arguments: analyzableFormats, values)
    func uniform(format: PixelFormat, value: UInt8) throws {
        // 30×22 is not a multiple of the sampling step: 8×6 samples.
        let statistics = try stepFour.analyze(try buffer(format, width: 30, height: 22) { _, _ in value })
        let bin = fullRange(value, in: format)
        let brightness = isVideoRange(format) ? min(max((Double(value) - 16) / 219, 0), 1) : Double(value) / 255
        #expect(abs(statistics.brightness - brightness) <= 1e-6, "brightness \(statistics.brightness), expected \(brightness)")
        #expect(statistics.size == PixelSize(width: 30, height: 22))
        #expect(statistics.histogram.total == 8 * 6)
        #expect(statistics.histogram.counts[bin] == 8 * 6, "every sample in bin \(bin)")
        #expect(statistics.clippedFraction == (bin >= 250 ? 1 : 0))
        #expect(statistics.crushedFraction == (bin <= 5 ? 1 : 0))
        let expectedLinear = linear(bin)
        #expect(relativelyClose(statistics.linearMean, expectedLinear), "linear mean \(statistics.linearMean), expected \(expectedLinear)")
        for channel in 0..<3 {
            #expect(relativelyClose(statistics.channelMeans[channel], expectedLinear), "channel \(channel): \(statistics.channelMeans[channel])")
        }
        #expect(statistics.rowMeans.count == 22)
    }

    @Test("Full-range brightness is exactly v/255 on a 480×270 frame, and the linear mean the exact sRGB decoding",
          arguments: [UInt8(3), 51, 102, 118, 187, 254])
    func fullSizeUniform(value: UInt8) throws {
        let statistics = try stepFour.analyze(try buffer(.gray8, width: 480, height: 270) { _, _ in value })
        #expect(abs(statistics.brightness - Double(value) / 255) <= 1e-6)
        #expect(statistics.histogram.total == 120 * 68)
        #expect(statistics.histogram.counts[Int(value)] == 120 * 68)
        #expect(relativelyClose(statistics.linearMean, linear(Int(value))),
                "linear mean \(statistics.linearMean), expected \(linear(Int(value)))")
        for mean in statistics.zones.means {
            let zoneMean = try #require(mean)
            #expect(relativelyClose(zoneMean, linear(Int(value))))
        }
    }

    @Test("Half black, half white: brightness 0.5, linear mean 0.5, two histogram bins", arguments: analyzableFormats)
    func halves(format: PixelFormat) throws {
        let (black, white): (UInt8, UInt8) = isVideoRange(format) ? (16, 235) : (0, 255)
        let statistics = try stepFour.analyze(try buffer(format, width: 32, height: 16) { x, _ in x < 16 ? black : white })
        #expect(abs(statistics.brightness - 0.5) <= 1e-6)
        #expect(abs(statistics.linearMean - 0.5) <= 1e-6)
        #expect(statistics.histogram.total == 8 * 4)
        #expect(statistics.histogram.counts[0] == 16)
        #expect(statistics.histogram.counts[255] == 16)
        #expect(statistics.clippedFraction == 0.5)
        #expect(statistics.crushedFraction == 0.5)
    }

    struct Colour: Sendable, CustomTestStringConvertible {
        let blue: UInt8, green: UInt8, red: UInt8
        var testDescription: String { "B\(blue) G\(green) R\(red)" }
    }

    static let weightCases: [(Colour, Double)] = [
        (Colour(blue: 0, green: 0, red: 255), 0.2126),
        (Colour(blue: 0, green: 255, red: 0), 0.7152),
        (Colour(blue: 255, green: 0, red: 0), 0.0722),
        (Colour(blue: 100, green: 100, red: 100), 100.0 / 255),
    ]

    @Test("bgra8 brightness uses the Rec. 709 weights on the right channels; alpha is ignored", arguments: weightCases)
    func bgraWeights(colour: Colour, brightness: Double) throws {
        let statistics = try FrameAnalyzer(configuration: AnalysisConfiguration(sampleStep: 1))
            .analyze(try bgra(blue: colour.blue, green: colour.green, red: colour.red))
        #expect(abs(statistics.brightness - brightness) <= 1e-6, "\(colour): \(statistics.brightness)")
        // The sampled luma uses 8-bit integer weights: within one bin of the exact value.
        let bin = try #require(statistics.histogram.counts.firstIndex { $0 > 0 })
        #expect(abs(Double(bin) - brightness * 255) <= 1, "\(colour): bin \(bin)")
        // Linear luminance weighs the decoded channels.
        let expected = 0.2126 * linear(Int(colour.red)) + 0.7152 * linear(Int(colour.green)) + 0.0722 * linear(Int(colour.blue))
        #expect(relativelyClose(statistics.linearMean, expected, 1e-5), "\(colour): linear \(statistics.linearMean)")
        #expect(abs(statistics.channelMeans.x - linear(Int(colour.red))) <= 1e-6)
        #expect(abs(statistics.channelMeans.y - linear(Int(colour.green))) <= 1e-6)
        #expect(abs(statistics.channelMeans.z - linear(Int(colour.blue))) <= 1e-6)
    }

    @Test("Clipped is ≥ 250 and crushed ≤ 5, boundaries included", arguments: [
        (0, 0.0, 1.0), (5, 0, 1), (6, 0, 0), (128, 0, 0), (249, 0, 0), (250, 1, 0), (255, 1, 0),
    ])
    func clipAndCrushBoundaries(value: Int, clipped: Double, crushed: Double) throws {
        let statistics = try stepFour.analyze(try buffer(.gray8, width: 4, height: 4) { _, _ in UInt8(value) })
        #expect(statistics.clippedFraction == clipped)
        #expect(statistics.crushedFraction == crushed)
    }

    @Test("Crushed and clipped fractions count their share of the samples")
    func fractions() throws {
        // Sampled rows (every 4th) hold 3, 6, 128, 252: one quarter crushed, one quarter clipped.
        let values: [UInt8] = [3, 6, 128, 252]
        let statistics = try stepFour.analyze(try buffer(.gray8, width: 24, height: 16) { _, y in values[y / 4] })
        #expect(statistics.histogram.total == 6 * 4)
        #expect(statistics.crushedFraction == 0.25)
        #expect(statistics.clippedFraction == 0.25)
        #expect(abs(statistics.brightness - (3 + 6 + 128 + 252) / 4.0 / 255) <= 1e-6)
    }

    @Test("nv12 luma is rescaled by range; chroma is neutral at 128", arguments: [
        (YCbCrRange.video, UInt8(16), 0.0),
        (.video, 235, 1.0),
        (.video, 0, 0.0),       // below black clamps to black
        (.video, 255, 1.0),     // above white clamps to white
        (.video, 126, 110.0 / 219),
        (.full, 255, 1.0),
        (.full, 16, 16.0 / 255),
        (.full, 0, 0.0),
    ])
    func nv12(range: YCbCrRange, y: UInt8, brightness: Double) throws {
        let statistics = try stepFour.analyze(try buffer(.nv12(range), width: 8, height: 4) { _, _ in y })
        #expect(abs(statistics.brightness - brightness) <= 1e-6, "Y \(y) \(range): \(statistics.brightness)")
        #expect(statistics.histogram.total == 2)
    }

    @Test("Every video-range luma value lands in bin round((Y − 16) · 255 / 219), clamped", arguments: [PixelFormat.nv12(.video), .yuyv422])
    func videoRangeBins(format: PixelFormat) throws {
        var wrong: [String] = []
        for value in 0...255 {
            let statistics = try stepFour.analyze(try buffer(format, width: 2, height: 2) { _, _ in UInt8(value) })
            let bin = statistics.histogram.counts.firstIndex { $0 > 0 }
            if bin != fullRange(UInt8(value), in: format) { wrong.append("Y \(value) → bin \(bin ?? -1)") }
        }
        #expect(wrong.isEmpty, "expected round((Y − 16) · 255 / 219): \(wrong)")
    }

    @Test("Brightness ignores chroma; the sampled colour follows it", arguments: [UInt8(0), 64, 200, 255])
    func nv12ChromaIgnoredByBrightness(chroma: UInt8) throws {
        let statistics = try stepFour.analyze(try buffer(.nv12(.video), width: 8, height: 4, other: chroma) { _, _ in 126 })
        #expect(abs(statistics.brightness - 110.0 / 219) <= 1e-6)
        // The histogram holds luma, not colour: always bin round(110 × 255 / 219) = 128.
        #expect(statistics.histogram.counts[128] == 2)
    }

    @Test("yuyv422 reads luma from the even bytes (video range), not from chroma")
    func yuyv() throws {
        let white = try stepFour.analyze(try buffer(.yuyv422, width: 8, height: 4, other: 16) { _, _ in 235 })
        #expect(white.brightness == 1)
        let black = try stepFour.analyze(try buffer(.yuyv422, width: 8, height: 4, other: 240) { _, _ in 16 })
        #expect(black.brightness == 0)
        let alternate = try stepFour.analyze(try buffer(.yuyv422, width: 8, height: 4) { x, _ in x.isMultiple(of: 2) ? 235 : 16 })
        #expect(abs(alternate.brightness - 0.5) <= 1e-6)
        // Samples fall on even columns (step 4): all white.
        #expect(alternate.clippedFraction == 1)
    }

    @Test("The sampled pass reads every step-th pixel of every step-th row; brightness always reads every pixel", arguments: [
        (1, 48, 0.25),
        (2, 12, 1.0),
        (3, 6, 2.0 / 6),   // x 0, 3, 6 × y 0, 3: only (0, 0) and (6, 0) are lit
        (8, 1, 1.0),
    ])
    func subsampling(step: Int, samples: Int, clipped: Double) throws {
        // 8×6, white where x and y are both even.
        let pattern = try buffer(.gray8, width: 8, height: 6) { x, y in x.isMultiple(of: 2) && y.isMultiple(of: 2) ? 255 : 0 }
        let statistics = try FrameAnalyzer(configuration: AnalysisConfiguration(sampleStep: step)).analyze(pattern)
        #expect(statistics.histogram.total == samples)
        #expect(abs(statistics.clippedFraction - clipped) <= 1e-12)
        #expect(abs(statistics.brightness - 0.25) <= 1e-6)
    }

    @Test("Row padding is never read")
    func ignoresPadding() throws {
        let buffer = try PixelBuffer(format: .gray8, width: 10, height: 3)
        #expect(buffer.planes[0].bytesPerRow > 10)
        buffer.withUnsafeMutableBytes(plane: 0) { bytes in
            for index in bytes.indices { bytes[index] = 255 }
        }
        for y in 0..<3 {
            for x in 0..<10 { buffer[plane: 0, x: x, y: y] = 0 }
        }
        let statistics = try FrameAnalyzer(configuration: AnalysisConfiguration(sampleStep: 1)).analyze(buffer)
        #expect(statistics.brightness == 0)
        #expect(statistics.clippedFraction == 0)
        #expect(statistics.linearMean == 0)
    }
}

@Suite("FrameAnalyzer across YCbCr ranges and regions")
struct RangeAndRegionTests {
    /// A 64×48 pattern of four levels that are exact in both ranges: full 0, 85, 170, 255 are
    /// video 16, 89, 162, 235.
    private func levels(_ range: YCbCrRange) throws -> PixelBuffer {
        let full: [UInt8] = [0, 85, 170, 255], video: [UInt8] = [16, 89, 162, 235]
        return try buffer(.nv12(range), width: 64, height: 48) { x, y in
            let level = (x / 16 + y / 12) % 4
            return range == .full ? full[level] : video[level]
        }
    }

    @Test("nv12 video and full range give the same statistics for the same picture")
    func videoMatchesFull() throws {
        let full = try stepFour.analyze(try levels(.full))
        let video = try stepFour.analyze(try levels(.video))
        #expect(abs(full.brightness - video.brightness) <= 1e-6, "full \(full.brightness), video \(video.brightness)")
        for (a, b) in zip(full.rowMeans, video.rowMeans) {
            #expect(abs(a - b) <= 1e-6)
        }
        #expect(full.histogram == video.histogram)
        #expect(full.histogram.counts.filter { $0 > 0 }.count == 4)
        #expect(full.linearMean == video.linearMean)
        #expect(full.channelMeans == video.channelMeans)
        #expect(full.zones == video.zones)
        #expect(full.cells == video.cells)
        #expect(full.highlights == video.highlights)
        #expect(full.dynamicRange == video.dynamicRange)
    }

    @Test("Simulated nv12 frames read the same in video and full range")
    func simulatedRangesAgree() async throws {
        let full = try stepFour.analyze(try await referenceFrame(.grayCard, format: smallFormat(160, 120, .nv12(.full))).buffer)
        let video = try stepFour.analyze(try await referenceFrame(.grayCard, format: smallFormat(160, 120, .nv12(.video))).buffer)
        #expect(abs(full.brightness - video.brightness) <= 0.01, "full \(full.brightness), video \(video.brightness)")
        #expect(abs(full.linearMean / video.linearMean - 1) <= 0.03, "full \(full.linearMean), video \(video.linearMean)")
        for fraction in [0.02, 0.5, 0.98] {
            #expect(abs(full.histogram.percentile(fraction) - video.histogram.percentile(fraction)) <= 2.0 / 255)
        }
    }

    @Test("The left half of a half-black, half-white frame is black; the right half white", arguments: analyzableFormats)
    func regionOfInterest(format: PixelFormat) throws {
        let (black, white): (UInt8, UInt8) = isVideoRange(format) ? (16, 235) : (0, 255)
        let frame = try buffer(format, width: 64, height: 32) { x, _ in x < 32 ? black : white }
        let left = try FrameAnalyzer(configuration: AnalysisConfiguration(regionOfInterest: NormalizedRect(x: 0, y: 0, width: 0.5, height: 1)))
            .analyze(frame)
        #expect(left.brightness == 0)
        #expect(left.linearMean == 0)
        #expect(left.crushedFraction == 1)
        #expect(left.size == PixelSize(width: 32, height: 32))
        let right = try FrameAnalyzer(configuration: AnalysisConfiguration(regionOfInterest: NormalizedRect(x: 0.5, y: 0, width: 0.5, height: 1)))
            .analyze(frame)
        #expect(abs(right.brightness - 1) <= 1e-6)
        #expect(right.clippedFraction == 1)
        let whole = try stepFour.analyze(frame)
        #expect(abs(whole.brightness - 0.5) <= 1e-6)
    }

    @Test("A zero-sized region still analyses its nearest pixel")
    func emptyRegion() throws {
        let frame = try buffer(.gray8, width: 16, height: 16) { x, y in UInt8(x * 16 + y) }
        let statistics = try FrameAnalyzer(configuration: AnalysisConfiguration(regionOfInterest: NormalizedRect(x: 0.5, y: 0.25, width: 0, height: 0)))
            .analyze(frame)
        #expect(statistics.size == PixelSize(width: 1, height: 1))
        #expect(statistics.histogram.total == 1)
        #expect(abs(statistics.brightness - Double(8 * 16 + 4) / 255) <= 1e-6)
    }

    @Test("bayer16 frames are rejected with advice to demosaic")
    func rejectsBayer() throws {
        let raw = try PixelBuffer(format: .bayer16(.rggb, significantBits: 12), width: 16, height: 16)
        let error = #expect(throws: MeteringError.self) { try stepFour.analyze(raw) }
        #expect(error == .unsupportedFormat(.bayer16(.rggb, significantBits: 12)))
        #expect(error?.description.contains("demosaic") == true, "\(String(describing: error))")
        #expect(throws: MeteringError.unsupportedFormat(.bayer16(.rggb, significantBits: 12))) { try Sharpness.measure(raw) }
    }
}
