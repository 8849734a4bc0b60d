import CameraCapture
import CameraCore
import CameraFilters
import CameraMovie
import CameraRecording
import CameraTestSupport
import Foundation
import Testing

/// Takes through `MovieFileOutput`'s filters, read back by decoding their first frame with
/// ffmpeg: the same camera frames recorded with and without a filter.
@Suite struct FilteredTakeTests {
    static let size = PixelSize(width: 640, height: 360)

    /// The first frame of a take of a tenth of a second of backlit-portrait (processed bgra8
    /// frames, the same every run) through `filters`, decoded by ffmpeg as packed 8-bit RGB.
    static func firstFrame(filters: FilterChain?) async throws -> [UInt8] {
        var decoded: [UInt8] = []
        try await withTemporaryFile { path in
            _ = try MovieFileOutputTests.saved(try await take(to: path, pixelFormat: .bgra8, seconds: 0.1, filters: filters))
            let result = try await runTool("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-frames:v", "1",
                                                         "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
            #expect(result.status == 0, "ffmpeg: \(result.errors) — run make deps")
            decoded = [UInt8](result.output)
        }
        #expect(decoded.count == size.width * size.height * 3)
        return decoded
    }

    /// How a take of `seconds` of `pixelFormat` frames through `filters` into `path` ended.
    static func take(to path: String, pixelFormat: PixelFormat, seconds: Double, filters: FilterChain?) async throws
        -> MovieFileOutput.Event? {
        let movie = MovieFileOutput()
        let events = movie.events
        let (session, _) = try await MovieFileOutputTests.session(movie, size: size, pixelFormat: pixelFormat)
        try movie.startRecording(to: path, limits: MovieRecording.Limits(maximumDuration: seconds), filters: filters)
        try await session.start()
        let end = await MovieFileOutputTests.end(of: events)
        await session.stop()
        return end
    }

    /// The mean absolute difference of two decoded frames over the pixels where `inside` holds.
    static func meanDifference(_ first: [UInt8], _ second: [UInt8], where inside: (Int, Int) -> Bool) -> Double {
        var total = 0, count = 0
        for y in 0..<size.height {
            for x in 0..<size.width where inside(x, y) {
                for channel in 0..<3 {
                    let index = (y * size.width + x) * 3 + channel
                    total += abs(Int(first[index]) - Int(second[index]))
                    count += 1
                }
            }
        }
        return Double(total) / Double(max(count, 1))
    }

    @Test("a watermark changes the recorded picture where its text is, and leaves the rest as the unfiltered take's within codec noise")
    func watermarkPixels() async throws {
        let settings = WatermarkSettings(text: "CameraSun")
        let watermarked = try await Self.firstFrame(filters: FilterChain([try Watermark(settings)]))
        let plain = try await Self.firstFrame(filters: nil)
        // The text's region for a date now: its digits are all one width in DejaVu Sans, so any date gives the same.
        let region = try Watermark(settings).region(width: Self.size.width, height: Self.size.height, at: Date())
        // H.264 codes 16×16 macroblocks: a changed pixel may move the rest of its block and its neighbours.
        let around = PixelRegion(x: region.x - 32, y: region.y - 32, width: region.width + 64, height: region.height + 64)
        let inside = Self.meanDifference(watermarked, plain) { region.contains(x: $0, y: $1) }
        let outside = Self.meanDifference(watermarked, plain) { !around.contains(x: $0, y: $1) }
        print("watermark \(region): mean difference \(inside) inside, \(outside) outside")
        #expect(region.width > 50 && region.height > 20, "\(region)")
        #expect(inside > 20, "the text is burned in")
        #expect(outside < 1, "the rest of the picture is the plain take's")
    }

    @Test("an identity LUT records the picture the unfiltered take records")
    func identityLUT() async throws {
        let graded = try await Self.firstFrame(filters: FilterChain([LUTFilter(try CubeLUT.identity(size: 17))]))
        let plain = try await Self.firstFrame(filters: nil)
        #expect(Self.meanDifference(graded, plain) { _, _ in true } < 0.01)
    }

    @Test("a chain that cannot take the camera's frames fails the take at its first frame, with no file left")
    func refusedFormat() async throws {
        try await withTemporaryFile { path in
            let end = try await Self.take(to: path, pixelFormat: .nv12(.video), seconds: 0.5,
                                          filters: FilterChain([LUTFilter(try CubeLUT.identity(size: 2))]))
            guard case .failed(let error) = end else {
                Issue.record("the take did not fail: \(String(describing: end))")
                return
            }
            #expect(error.message == "cannot record nv12 frames with these filters: the LUT filter cannot filter a nv12 frame — "
                + "render the picture as bgra8 before filtering it")
            #expect(!FileManager.default.fileExists(atPath: path) && !FileManager.default.fileExists(atPath: path + MovieRecording.partialSuffix))
        }
    }
}
