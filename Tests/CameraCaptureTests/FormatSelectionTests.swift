import CameraCapture
import CameraCore
import CameraSimulated
import Testing

/// Choosing a device format for a request, with the fallback rules and reasons of `FormatSelection`.
@Suite struct FormatSelectionTests {
    static let formats = SimulatedCamera.standardFormats

    static func size(_ width: Int, _ height: Int) -> PixelSize { PixelSize(width: width, height: height) }

    static func format(_ width: Int, _ height: Int, _ pixelFormat: PixelFormat = .bgra8, rates: ClosedRange<Double>...) -> DeviceFormat {
        DeviceFormat(size: size(width, height), pixelFormat: pixelFormat,
                     frameRateRanges: rates.map { FrameRateRange(minimum: $0.lowerBound, maximum: $0.upperBound) })
    }

    @Test func anExactMatchIsTakenWithoutAReason() throws {
        let choice = try FormatSelection.best(for: FormatRequest(size: Self.size(1280, 720), frameRate: 60, pixelFormat: .bgra8),
                                              in: Self.formats)
        #expect(choice.format == Self.format(1280, 720, rates: 1...60))
        #expect(choice.frameRate == 60)
        #expect(choice.fallbackReason == nil)
    }

    @Test func fullHDAt60TakesTheFormatThatRunsAt60() throws {
        let choice = try FormatSelection.best(for: FormatRequest(size: Self.size(1920, 1080), frameRate: 60), in: Self.formats)
        #expect(choice.format == Self.format(1920, 1080, rates: 30...60))
        #expect(choice.frameRate == 60)
        #expect(choice.fallbackReason == nil)
    }

    @Test func fourKAt60KeepsTheSizeAndLowersTheRate() throws {
        let choice = try FormatSelection.best(for: FormatRequest(size: Self.size(3840, 2160), frameRate: 60), in: Self.formats)
        #expect(choice.format == Self.format(3840, 2160, rates: 1...30))
        #expect(choice.frameRate == 30)
        #expect(choice.fallbackReason == "60 fps is not available at 3840x2160 (up to 30 fps); using 30 fps")
    }

    @Test func fourKAt60WithRateFirstKeepsTheRateAndTakesTheNearestSize() throws {
        let request = FormatRequest(size: Self.size(3840, 2160), frameRate: 60, priority: .frameRate)
        let choice = try FormatSelection.best(for: request, in: Self.formats)
        #expect(choice.format == Self.format(1920, 1080, rates: 30...60))
        #expect(choice.frameRate == 60)
        #expect(choice.fallbackReason == "3840x2160 cannot run at 60 fps; using 1920x1080, the nearest size that can run at 60 fps")
    }

    @Test(arguments: [
        (PixelSize(width: 2560, height: 1440), PixelSize(width: 1920, height: 1080)),
        (PixelSize(width: 1000, height: 1000), PixelSize(width: 1280, height: 720)),
        (PixelSize(width: 320, height: 240), PixelSize(width: 640, height: 480)),
        (PixelSize(width: 7680, height: 4320), PixelSize(width: 3840, height: 2160)),
    ])
    func aMissingSizeFallsBackToTheNearestPixelCount(wanted: PixelSize, expected: PixelSize) throws {
        let choice = try FormatSelection.best(for: FormatRequest(size: wanted, frameRate: 30), in: Self.formats)
        #expect(choice.format.size == expected)
        #expect(choice.frameRate == 30)
        #expect(choice.fallbackReason == "\(wanted) is not available; using \(expected), the nearest size")
    }

    @Test func aTieInSizeGoesToTheLargerOne() throws {
        // 800x600 is 480 000 pixels: 400x300 is 4x fewer, 1600x1200 4x more.
        let formats = [Self.format(400, 300, rates: 1...30), Self.format(1600, 1200, rates: 1...30)]
        let choice = try FormatSelection.best(for: FormatRequest(size: Self.size(800, 600)), in: formats)
        #expect(choice.format.size == Self.size(1600, 1200))
    }

    @Test(arguments: [PixelFormat.nv12(.full), .yuyv422, .bayer16(.rggb, significantBits: 12)])
    func thePixelFormatIsHonoured(pixelFormat: PixelFormat) throws {
        let choice = try FormatSelection.best(for: FormatRequest(size: Self.size(1920, 1080), frameRate: 25, pixelFormat: pixelFormat),
                                              in: Self.formats)
        #expect(choice.format == Self.format(1920, 1080, pixelFormat, rates: 1...30))
        #expect(choice.frameRate == 25)
    }

    @Test func withoutASizeTheLargestSizeThatReachesTheRateWins() throws {
        let fast = try FormatSelection.best(for: FormatRequest(frameRate: 100), in: Self.formats)
        #expect(fast.format == Self.format(640, 480, rates: 1...120))
        #expect(fast.frameRate == 100)
        #expect(fast.fallbackReason == nil)
        let anything = try FormatSelection.best(for: FormatRequest(), in: Self.formats)
        #expect(anything.format == Self.format(3840, 2160, rates: 1...30))
        #expect(anything.frameRate == 30)
    }

    @Test func aRateOutsideEveryRangeTakesTheNearestAndSaysWhich() throws {
        let slow = try FormatSelection.best(for: FormatRequest(size: Self.size(1920, 1080), frameRate: 0.5), in: Self.formats)
        #expect(slow.frameRate == 1)
        #expect(slow.fallbackReason == "0.5 fps is not available at 1920x1080 (at least 1 fps); using 1 fps")
        let gapped = [Self.format(1280, 720, rates: 1...15, 30...60)]
        let between = try FormatSelection.best(for: FormatRequest(frameRate: 20), in: gapped)
        #expect(between.frameRate == 15)
        #expect(between.fallbackReason == "20 fps is not available at 1280x720 (1–15, 30–60 fps); using 15 fps")
    }

    @Test func anNTSCRateIsKeptExactly() throws {
        let choice = try FormatSelection.best(for: FormatRequest(size: Self.size(1920, 1080), frameRate: 30000.0 / 1001), in: Self.formats)
        #expect(choice.frameRate == 30000.0 / 1001)
        #expect(choice.fallbackReason == nil)
    }

    @Test func nothingFittingThrowsListingWhatTheDeviceOffers() {
        let bgraOnly = [Self.format(1280, 720, rates: 1...30), Self.format(640, 480, rates: 1...30)]
        #expect(throws: CaptureError.invalidConfiguration("the device has no yuyv422 format — choose one of: bgra8")) {
            try FormatSelection.best(for: FormatRequest(pixelFormat: .yuyv422), in: bgraOnly)
        }
        #expect(throws: CaptureError.invalidConfiguration("the device offers no formats")) {
            try FormatSelection.best(for: FormatRequest(), in: [])
        }
        #expect(throws: CaptureError.invalidConfiguration("the requested frame rate 0 fps is not a positive number of frames per second")) {
            try FormatSelection.best(for: FormatRequest(frameRate: 0), in: bgraOnly)
        }
    }
}
