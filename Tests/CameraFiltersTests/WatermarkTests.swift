import CameraCore
@testable import CameraFilters
import Foundation
import Testing

@Suite("Burning in a timestamp")
struct WatermarkTests {
    /// 2026-12-01 19:20:54 UTC.
    static let date = Date(timeIntervalSince1970: 1_796_152_854)
    static let utc = TimeZone(identifier: "UTC")!

    /// A mid-grey frame with a gradient, so that both the white ink and the dark outline change it.
    static func frame(width: Int = 640, height: Int = 360) throws -> PixelBuffer {
        try TestFrames.bgra(width: width, height: height) { x, y in
            SIMD4(UInt8(64 + x % 128), UInt8(96 + y % 64), 128, 255)
        }
    }

    @Test("the text changes pixels inside its region and none outside it", arguments: WatermarkSettings.Corner.allCases)
    func pixelsInsideOnly(corner: WatermarkSettings.Corner) throws {
        let watermark = try Watermark(WatermarkSettings(text: "CameraSun", corner: corner, timeZone: Self.utc))
        let frame = try Self.frame(), original = try Self.frame()
        try watermark.apply(to: frame, at: Self.date)
        let region = try watermark.region(width: frame.width, height: frame.height, at: Self.date)
        var changedInside = 0, changedOutside = 0, whitened = 0, darkened = 0
        for y in 0..<frame.height {
            for x in 0..<frame.width where frame.rgba(x, y) != original.rgba(x, y) {
                if region.contains(x: x, y: y) { changedInside += 1 } else { changedOutside += 1 }
                if frame.rgba(x, y).x > 240 { whitened += 1 }
                if frame.rgba(x, y).x < 40 { darkened += 1 }
            }
        }
        print("watermark \(corner) at 640x360: region \(region), \(changedInside) pixels changed, \(whitened) white, \(darkened) dark")
        #expect(changedOutside == 0)
        #expect(changedInside > region.width * region.height / 10)
        #expect(whitened > 200 && darkened > 200)
        let margin = 10  // three quarters of the 13-pixel size, rounded
        switch corner {
        case .topLeft: #expect(region.x >= margin && region.x < 2 * margin && region.y >= margin - 3 && region.y < 2 * margin)
        case .topRight: #expect(frame.width - region.x - region.width < 2 * margin && region.y < 2 * margin)
        case .bottomLeft: #expect(region.x < 2 * margin && frame.height - region.y - region.height < 2 * margin)
        case .bottomRight: #expect(frame.width - region.x - region.width < 2 * margin && frame.height - region.y - region.height < 2 * margin)
        }
    }

    @Test("on nv12 the text whitens the luma and neutralises the chroma inside its region, and changes no sample outside it",
          arguments: [YCbCrRange.video, .full])
    func nv12(range: YCbCrRange) throws {
        let watermark = try Watermark(WatermarkSettings(text: "CameraSun", corner: .bottomLeft, timeZone: Self.utc))
        let frame = try PixelBuffer(format: .nv12(range), width: 640, height: 360)
        for y in 0..<360 {
            for x in 0..<640 { frame[plane: 0, x: x, y: y] = UInt8(60 + (x + y) % 120) }
        }
        for y in 0..<180 {
            for x in stride(from: 0, to: 640, by: 2) {
                frame[plane: 1, x: x, y: y] = 90
                frame[plane: 1, x: x + 1, y: y] = 170
            }
        }
        let original = frame.copy()
        try watermark.apply(to: frame, at: Self.date)
        let region = try watermark.region(width: 640, height: 360, at: Self.date)
        var lumaChanged = 0, chromaChanged = 0, outside = 0, white = 0, neutral = 0
        for y in 0..<360 {
            for x in 0..<640 where frame[plane: 0, x: x, y: y] != original[plane: 0, x: x, y: y] {
                lumaChanged += 1
                if !region.contains(x: x, y: y) { outside += 1 }
                if frame[plane: 0, x: x, y: y] >= (range == .video ? 230 : 250) { white += 1 }
            }
        }
        for y in 0..<180 {
            for x in 0..<640 where frame[plane: 1, x: x, y: y] != original[plane: 1, x: x, y: y] {
                chromaChanged += 1
                if !region.contains(x: x & ~1, y: 2 * y) || !region.contains(x: x | 1, y: 2 * y + 1) { outside += 1 }
                if abs(Int(frame[plane: 1, x: x, y: y]) - 128) <= 4 { neutral += 1 }
            }
        }
        print("watermark on nv12 \(range): region \(region), \(lumaChanged) luma and \(chromaChanged) chroma samples changed")
        #expect(outside == 0)
        #expect(lumaChanged > 1000 && chromaChanged > 500 && white > 100 && neutral > 100)
    }

    @Test("the text is sized from the frame height", arguments: [(640, 360), (1280, 720), (1920, 1080), (3840, 2160)])
    func sizedByHeight(width: Int, height: Int) throws {
        let watermark = try Watermark(WatermarkSettings(timeZone: Self.utc))
        let region = try watermark.region(width: width, height: height, at: Self.date)
        // The digits stand about three quarters of the 0.035-of-the-frame em, plus the outline.
        let fraction = Double(region.height) / Double(height)
        #expect(fraction > 0.025 && fraction < 0.035, "\(region) in \(width)x\(height)")
        #expect(Double(region.width) / Double(height) > 0.3, "\(region)")
    }

    @Test("each line of text above the timestamp makes the region taller, its bottom staying put")
    func textLine() throws {
        let plain = try Watermark(WatermarkSettings(timeZone: Self.utc)).region(width: 1280, height: 720, at: Self.date)
        let titled = try Watermark(WatermarkSettings(text: "Gate 3", timeZone: Self.utc)).region(width: 1280, height: 720, at: Self.date)
        let twoLines = try Watermark(WatermarkSettings(text: "Gate 3\nNorth", timeZone: Self.utc)).region(width: 1280, height: 720, at: Self.date)
        #expect(titled.height > plain.height * 3 / 2)
        #expect(twoLines.height > titled.height + plain.height / 2)
        #expect(titled.y + titled.height == plain.y + plain.height && twoLines.y + twoLines.height == plain.y + plain.height)
    }

    @Test("the timestamp reads yyyy-MM-dd HH:mm:ss in the given zone, as Foundation's formatter says", arguments: [
        (0.0, "UTC"), (1_796_152_854.9, "UTC"), (1_796_152_854, "Asia/Kolkata"), (951_827_696, "America/Los_Angeles"),
        (-1_000_000_000, "Europe/Berlin"), (4_107_542_399, "Pacific/Auckland"),
    ])
    func timestamp(seconds: Double, zone: String) throws {
        let timeZone = try #require(TimeZone(identifier: zone))
        let date = Date(timeIntervalSince1970: seconds)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        #expect(TimestampText.string(for: date, in: timeZone) == formatter.string(from: date))
    }

    @Test("a missing font is an error that names the package to install")
    func missingFont() {
        #expect(throws: FilterError("the watermark's font /nonexistent/DejaVuSans.ttf is missing — install the Debian package fonts-dejavu-core or give the path of a TrueType font")) {
            try Watermark(WatermarkSettings(fontPath: "/nonexistent/DejaVuSans.ttf"))
        }
    }

    @Test("a file that is not a font, a text height out of range and an nv12 frame are clear errors")
    func badInput() throws {
        let notAFont = try TestFrames.file("font.ttf", "not a font")
        #expect { try Watermark(WatermarkSettings(fontPath: notAFont)) } throws: { error in
            (error as? FilterError)?.message.hasPrefix("cannot load the font \(notAFont): ") == true
        }
        #expect(throws: FilterError.self) { try Watermark(WatermarkSettings(textHeight: 0.5)) }
        let gray = try PixelBuffer(format: .gray8, width: 64, height: 64)
        #expect(throws: FilterError("the watermark cannot filter a gray8 frame — render the picture as bgra8 or nv12 before filtering it")) {
            try Watermark(WatermarkSettings()).apply(to: gray, at: Self.date)
        }
    }

    @Test("a frame smaller than the text is clipped, not overrun")
    func tinyFrame() throws {
        let watermark = try Watermark(WatermarkSettings(text: "a long line of text", timeZone: Self.utc))
        let frame = try Self.frame(width: 40, height: 30)
        try watermark.apply(to: frame, at: Self.date)
        let region = try watermark.region(width: 40, height: 30, at: Self.date)
        #expect(region.x >= 0 && region.y >= 0 && region.x + region.width <= 40 && region.y + region.height <= 30)
    }

    @Test("a 1080p frame's timestamp is cheap once its glyphs are cached (cost logged)")
    func costAt1080p() throws {
        let watermark = try Watermark(WatermarkSettings(text: "CameraSun", timeZone: Self.utc))
        let frame = try Self.frame(width: 1920, height: 1080)
        let clock = ContinuousClock()
        let first = try clock.measure { try watermark.apply(to: frame, at: Self.date) }
        let frames = 30
        let rest = try clock.measure {
            for second in 1...frames { try watermark.apply(to: frame, at: Self.date + Double(second)) }
        }
        print("watermark at 1080p: first frame \(first) (renders the glyphs), then \(rest / frames) a frame (this build)")
        let region = try watermark.region(width: 1920, height: 1080, at: Self.date)
        #expect(region.height > 60)
    }
}
