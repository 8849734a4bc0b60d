import CameraCore
import Foundation
import HTTPServer
import Testing
@testable import Viewfinder

@Suite("Preview painting: orientation, zebra and sun mask")
struct PreviewPainterTests {
    /// A bgra8 image whose pixel (x, y) is `colour(x, y)` as (red, green, blue).
    static func image(width: Int, height: Int, _ colour: (Int, Int) -> (UInt8, UInt8, UInt8)) throws -> PixelBuffer {
        let buffer = try PixelBuffer(format: .bgra8, width: width, height: height)
        let stride = buffer.planes[0].bytesPerRow
        buffer.withUnsafeMutableBytes(plane: 0) { bytes in
            for y in 0..<height {
                for x in 0..<width {
                    let (red, green, blue) = colour(x, y)
                    bytes.storeBytes(of: UInt32(blue) | UInt32(green) << 8 | UInt32(red) << 16 | 0xFF00_0000,
                                     toByteOffset: y * stride + x * 4, as: UInt32.self)
                }
            }
        }
        return buffer
    }

    /// Pixel (x, y) of a bgra8 image as (red, green, blue).
    static func pixel(_ buffer: PixelBuffer, _ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8) {
        let value = buffer.withUnsafeBytes(plane: 0) { $0.load(fromByteOffset: y * buffer.planes[0].bytesPerRow + x * 4, as: UInt32.self) }
        return (UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
    }

    static let noSun = SunMask(columns: 1, rows: 1, cells: [false])

    @Test("Each source pixel lands where PreviewGeometry shows its device point", arguments: Rotation.allCases, [false, true])
    func orientationMatchesPreviewGeometry(rotation: Rotation, mirrored: Bool) throws {
        let size = PixelSize(width: 6, height: 4)
        // Every pixel has its own colour: red = x, green = y.
        let source = try Self.image(width: size.width, height: size.height) { x, y in (UInt8(x * 40), UInt8(y * 40), 7) }
        var painter = PreviewPainter()
        let painted = try painter.paint(source, rotation: rotation, mirrored: mirrored, overlays: [], sunMask: Self.noSun)
        let displayed = rotation.apply(to: size)
        #expect(painted.width == displayed.width && painted.height == displayed.height)
        let geometry = try PreviewGeometry(imageSize: size, viewWidth: Double(displayed.width), viewHeight: Double(displayed.height),
                                           gravity: .stretch, rotation: rotation, mirrored: mirrored)
        for y in 0..<size.height {
            for x in 0..<size.width {
                let centre = NormalizedPoint(x: (Double(x) + 0.5) / Double(size.width), y: (Double(y) + 0.5) / Double(size.height))
                let shown = geometry.viewPoint(fromDevicePoint: centre)
                let (red, green, _) = Self.pixel(painted, Int(shown.x), Int(shown.y))
                #expect(red == UInt8(x * 40) && green == UInt8(y * 40), "source (\(x), \(y)) shown at (\(shown.x), \(shown.y))")
            }
        }
    }

    @Test("Zebra stripes exactly the pixels with luma ≥ 0.95, four pixels white then four black")
    func zebra() throws {
        // Columns 0…7 at 241 (luma 0.945), 8…15 at 243 (0.953).
        let source = try Self.image(width: 16, height: 8) { x, _ in x < 8 ? (241, 241, 241) : (243, 243, 243) }
        var painter = PreviewPainter()
        let painted = try painter.paint(source, rotation: .degrees0, mirrored: false, overlays: .zebra, sunMask: Self.noSun)
        for y in 0..<8 {
            for x in 0..<16 {
                let expected: UInt8 = x < 8 ? 241 : ((x + y) & 4 == 0 ? 255 : 0)
                #expect(Self.pixel(painted, x, y) == (expected, expected, expected), "(\(x), \(y))")
            }
        }
    }

    @Test("The sun mask tints exactly its cells' pixels orange, also when cells do not divide the image evenly")
    func sunMask() throws {
        let source = try Self.image(width: 10, height: 7) { _, _ in (100, 100, 100) }
        // 3×2 cells; the middle top and the right bottom cells are light sources.
        let mask = SunMask(columns: 3, rows: 2, cells: [false, true, false, false, false, true])
        var painter = PreviewPainter()
        let painted = try painter.paint(source, rotation: .degrees0, mirrored: false, overlays: .sun, sunMask: mask)
        let tinted: (UInt8, UInt8, UInt8) = (185, 111, 44)
        for y in 0..<7 {
            for x in 0..<10 {
                let cell = (y * 2 / 7) * 3 + x * 3 / 10
                let expected = mask.cells[cell] ? tinted : (100, 100, 100)
                #expect(Self.pixel(painted, x, y) == expected, "(\(x), \(y)) in cell \(cell)")
            }
        }
        let plain = try painter.paint(source, rotation: .degrees0, mirrored: false, overlays: .zebra, sunMask: mask)
        #expect(Self.pixel(plain, 5, 0) == (100, 100, 100), "without the sun overlay no cell is tinted")
    }

    @Test("The sun's cells follow the image through rotation and mirroring", arguments: Rotation.allCases, [false, true])
    func sunMaskFollowsOrientation(rotation: Rotation, mirrored: Bool) throws {
        let size = PixelSize(width: 8, height: 6)
        let source = try Self.image(width: size.width, height: size.height) { _, _ in (0, 0, 0) }
        // The top-left cell of a 2×2 grid: source pixels x 0…3, y 0…2.
        let mask = SunMask(columns: 2, rows: 2, cells: [true, false, false, false])
        var painter = PreviewPainter()
        let painted = try painter.paint(source, rotation: rotation, mirrored: mirrored, overlays: .sun, sunMask: mask)
        let orientation = DisplayOrientation(source: size, rotation: rotation, mirrored: mirrored)
        var tinted = 0
        for y in 0..<size.height {
            for x in 0..<size.width {
                let shown = orientation.displayedPixel(x: x, y: y)
                let isTinted = Self.pixel(painted, shown.x, shown.y) != (0, 0, 0)
                #expect(isTinted == (x < 4 && y < 3), "source (\(x), \(y)) shown at \(shown)")
                if isTinted { tinted += 1 }
            }
        }
        #expect(tinted == 12)
    }

    @Test("Painting is needed for overlays, rotation or mirroring only")
    func needed() {
        #expect(!PreviewPainter.isNeeded(overlays: [], rotation: .degrees0, mirrored: false))
        #expect(PreviewPainter.isNeeded(overlays: .sun, rotation: .degrees0, mirrored: false))
        #expect(PreviewPainter.isNeeded(overlays: [], rotation: .degrees90, mirrored: false))
        #expect(PreviewPainter.isNeeded(overlays: [], rotation: .degrees0, mirrored: true))
    }
}

@Suite("The overlay query")
struct PreviewOverlaysTests {
    static let queries: [(String, PreviewOverlays)] = [
        ("zebra,sun", [.zebra, .sun]), ("sun,zebra", [.zebra, .sun]), ("sun", .sun), ("zebra,,zebra", .zebra), ("", []),
    ]

    @Test("Names separated by commas, in any order; none for an empty query", arguments: queries)
    func parses(query: String, overlays: PreviewOverlays) throws {
        #expect(try PreviewOverlays(query: query) == overlays)
        #expect(try PreviewOverlays(query: overlays.description) == overlays, "the description parses back")
    }

    @Test("No query means no overlays; an unknown name is a 400 that lists the known ones")
    func unknown() throws {
        #expect(try PreviewOverlays(query: nil) == [])
        #expect(throws: HTTPError.badRequest("overlay \"zebras\" is unknown — use zebra, sun, or both separated by a comma")) {
            try PreviewOverlays(query: "zebra,zebras")
        }
    }
}

@Suite("Preview painting: the other camera's picture-in-picture")
struct PreviewInsetTests {
    /// A 64x36 preview of dark grey and a 16x9 inset whose left half is red and right half blue.
    static func images() throws -> (main: PixelBuffer, inset: PixelBuffer) {
        (try PreviewPainterTests.image(width: 64, height: 36) { _, _ in (20, 20, 20) },
         try PreviewPainterTests.image(width: 16, height: 9) { x, _ in x < 8 ? (255, 0, 0) : (0, 0, 255) })
    }

    @Test("The inset lands in the top-right corner, one margin (1/32 of the width) in, as its connection shows it", arguments: [false, true])
    func insetInTheCorner(mirrored: Bool) throws {
        let (main, insetImage) = try Self.images()
        let inset = PreviewPainter.Inset(image: insetImage, rotation: .degrees0, mirrored: mirrored)
        #expect(PreviewPainter.isNeeded(overlays: [], rotation: .degrees0, mirrored: false, inset: inset))
        var painter = PreviewPainter()
        let painted = try painter.paint(main, rotation: .degrees0, mirrored: false, overlays: [], sunMask: PreviewPainterTests.noSun,
                                        inset: inset)
        // 64 / 32 = 2: the inset spans x 46..<62, y 2..<11.
        let (red, blue): ((UInt8, UInt8, UInt8), (UInt8, UInt8, UInt8)) = ((255, 0, 0), (0, 0, 255))
        #expect(PreviewPainterTests.pixel(painted, 46, 2) == (mirrored ? blue : red))
        #expect(PreviewPainterTests.pixel(painted, 61, 10) == (mirrored ? red : blue))
        for (x, y) in [(45, 2), (62, 2), (46, 1), (46, 11), (0, 0), (30, 20)] {
            #expect(PreviewPainterTests.pixel(painted, x, y) == (20, 20, 20), "(\(x), \(y)) is outside the inset")
        }
    }

    @Test("The main picture is rotated and mirrored under the inset, which keeps its own orientation")
    func insetOverARotatedPreview() throws {
        let (main, insetImage) = try Self.images()
        var painter = PreviewPainter()
        let painted = try painter.paint(main, rotation: .degrees90, mirrored: true, overlays: [], sunMask: PreviewPainterTests.noSun,
                                        inset: PreviewPainter.Inset(image: insetImage, rotation: .degrees0, mirrored: false))
        #expect(painted.width == 36 && painted.height == 64)
        // 36 / 32 = 1: the inset spans x 19..<35, y 1..<10.
        #expect(PreviewPainterTests.pixel(painted, 19, 1) == (255, 0, 0))
        #expect(PreviewPainterTests.pixel(painted, 34, 9) == (0, 0, 255))
    }

    @Test("An inset larger than the picture is left out")
    func insetThatDoesNotFit() throws {
        #expect(PreviewPainter.insetOrigin(displayed: PixelSize(width: 16, height: 9), in: PixelSize(width: 64, height: 36)) ?? (0, 0) == (46, 2))
        #expect(PreviewPainter.insetOrigin(displayed: PixelSize(width: 64, height: 9), in: PixelSize(width: 64, height: 36)) == nil)
        #expect(PreviewPainter.insetOrigin(displayed: PixelSize(width: 16, height: 36), in: PixelSize(width: 64, height: 36)) == nil)
    }
}
