import CameraCore
import Testing

private func p(_ x: Double, _ y: Double) -> NormalizedPoint {
    NormalizedPoint(x: x, y: y)
}

@Suite("Rotation")
struct RotationTests {
    // Dyadic coordinates so that 1 − x is exact and results compare with ==.
    @Test("apply(to: point) rotates clockwise about the image centre", arguments: [
        (Rotation.degrees0, p(0.25, 0.125), p(0.25, 0.125)),
        (.degrees90, p(0.25, 0.125), p(0.875, 0.25)),
        (.degrees180, p(0.25, 0.125), p(0.75, 0.875)),
        (.degrees270, p(0.25, 0.125), p(0.125, 0.75)),
        // Corners: a clockwise quarter turn takes top-left to top-right, top-right to bottom-right.
        (.degrees90, p(0, 0), p(1, 0)),
        (.degrees90, p(1, 0), p(1, 1)),
        (.degrees90, p(1, 1), p(0, 1)),
        (.degrees270, p(0, 0), p(0, 1)),
        (.degrees180, p(0, 0), p(1, 1)),
        (.degrees90, NormalizedPoint.center, NormalizedPoint.center),
        (.degrees180, NormalizedPoint.center, NormalizedPoint.center),
    ])
    func rotatePoint(rotation: Rotation, point: NormalizedPoint, expected: NormalizedPoint) {
        #expect(rotation.apply(to: point) == expected)
    }

    @Test("apply(to: size) swaps width and height for quarter turns", arguments: [
        (Rotation.degrees0, PixelSize(width: 1920, height: 1080)),
        (.degrees90, PixelSize(width: 1080, height: 1920)),
        (.degrees180, PixelSize(width: 1920, height: 1080)),
        (.degrees270, PixelSize(width: 1080, height: 1920)),
    ])
    func rotateSize(rotation: Rotation, expected: PixelSize) {
        #expect(rotation.apply(to: PixelSize(width: 1920, height: 1080)) == expected)
        #expect(rotation.swapsDimensions == (expected.width != 1920))
    }

    @Test("inverse undoes the rotation for points and sizes",
          arguments: Rotation.allCases, [p(0.25, 0.125), p(0, 1), p(0.5, 0.75), p(1, 1), p(0.375, 0.9375)])
    func inverseRoundTrips(rotation: Rotation, point: NormalizedPoint) {
        #expect(rotation.inverse.apply(to: rotation.apply(to: point)) == point)
        #expect(rotation.apply(to: rotation.inverse.apply(to: point)) == point)
        let size = PixelSize(width: 640, height: 480)
        #expect(rotation.inverse.apply(to: rotation.apply(to: size)) == size)
    }

    @Test("inverse of each rotation", arguments: [
        (Rotation.degrees0, Rotation.degrees0), (.degrees90, .degrees270), (.degrees180, .degrees180), (.degrees270, .degrees90),
    ])
    func inverses(rotation: Rotation, inverse: Rotation) {
        #expect(rotation.inverse == inverse)
    }

    @Test("Two quarter turns make a half turn")
    func composition() {
        let point = p(0.25, 0.125)
        #expect(Rotation.degrees90.apply(to: Rotation.degrees90.apply(to: point)) == Rotation.degrees180.apply(to: point))
        #expect(Rotation.degrees90.apply(to: Rotation.degrees180.apply(to: point)) == Rotation.degrees270.apply(to: point))
    }

    @Test("init(degrees:) normalises multiples of 90", arguments: [
        (0, Rotation.degrees0), (90, .degrees90), (180, .degrees180), (270, .degrees270),
        (360, .degrees0), (450, .degrees90), (720, .degrees0), (-90, .degrees270), (-180, .degrees180),
        (-270, .degrees90), (-360, .degrees0), (-450, .degrees270),
    ])
    func initFromDegrees(degrees: Int, expected: Rotation) {
        #expect(Rotation(degrees: degrees) == expected)
    }

    @Test("init(degrees:) rejects angles that are not multiples of 90", arguments: [45, 1, -45, 89, 91, 100, 359, -1])
    func rejectsOtherAngles(degrees: Int) {
        #expect(Rotation(degrees: degrees) == nil)
    }

    @Test("degrees reports the raw angle")
    func degreesProperty() {
        #expect(Rotation.allCases.map(\.degrees) == [0, 90, 180, 270])
    }
}

@Suite("NormalizedPoint and NormalizedRect")
struct NormalizedGeometryTests {
    @Test("Points inside the unit square are inside the image; clamped pulls others to the edge")
    func pointClamping() {
        #expect(p(0, 0).isInsideImage)
        #expect(p(1, 1).isInsideImage)
        #expect(NormalizedPoint.center == p(0.5, 0.5))
        #expect(!p(1.5, 0.5).isInsideImage)
        #expect(!p(0.5, -0.01).isInsideImage)
        #expect(p(1.5, -0.2).clamped == p(1, 0))
        #expect(p(-3, 0.25).clamped == p(0, 0.25))
        #expect(p(0.3, 0.7).clamped == p(0.3, 0.7))
    }

    @Test("contains is half-open: the left and top edges are in, the right and bottom out")
    func rectContains() {
        let rect = NormalizedRect(x: 0.25, y: 0.25, width: 0.5, height: 0.25)
        #expect(rect.contains(p(0.25, 0.25)))
        #expect(rect.contains(p(0.5, 0.4)))
        #expect(!rect.contains(p(0.75, 0.3)))
        #expect(!rect.contains(p(0.5, 0.5)))
        #expect(!rect.contains(p(0.2, 0.3)))
        #expect(NormalizedRect.full.contains(p(0, 0)))
        #expect(!NormalizedRect.full.contains(p(1, 1)))
    }

    @Test("pixelBounds maps to pixel ranges, clipped to the image", arguments: [
        (NormalizedRect.full, 0..<200, 0..<100),
        (NormalizedRect(x: 0.25, y: 0.5, width: 0.5, height: 0.25), 50..<150, 50..<75),
        (NormalizedRect(x: 0.75, y: 0.75, width: 0.5, height: 0.5), 150..<200, 75..<100),     // overhangs right/bottom
        (NormalizedRect(x: -0.25, y: -0.5, width: 0.5, height: 0.75), 0..<50, 0..<25),        // overhangs left/top
        (NormalizedRect(x: -1, y: -1, width: 3, height: 3), 0..<200, 0..<100),                // covers the image
        (NormalizedRect(x: 1.5, y: 0.2, width: 0.25, height: 0.25), 200..<200, 20..<45),      // right of the image
        (NormalizedRect(x: -0.75, y: 0, width: 0.5, height: 1), 0..<0, 0..<100),              // left of the image
        (NormalizedRect(x: 0.5, y: 0.5, width: -0.25, height: 0), 100..<100, 50..<50),        // negative / zero size
        (NormalizedRect(x: 0.1, y: 0.1, width: 0.004, height: 0.01), 20..<21, 10..<11),       // rounds to pixels
    ])
    func pixelBounds(rect: NormalizedRect, columns: Range<Int>, rows: Range<Int>) {
        let bounds = rect.pixelBounds(in: PixelSize(width: 200, height: 100))
        #expect(bounds.columns == columns)
        #expect(bounds.rows == rows)
    }

    @Test("pixelBounds never traps on huge or non-finite coordinates", arguments: [
        NormalizedRect(x: 1e300, y: 0, width: 1, height: 1),
        NormalizedRect(x: -1e300, y: 0, width: 1, height: 1),
        NormalizedRect(x: 0, y: 0, width: .infinity, height: 1),
        NormalizedRect(x: .nan, y: 0, width: 1, height: 1),
        NormalizedRect(x: 0, y: .nan, width: 1, height: .nan),
        NormalizedRect(x: -.infinity, y: 0, width: .infinity, height: 1),
    ])
    func pixelBoundsOfExtremeRects(rect: NormalizedRect) {
        let bounds = rect.pixelBounds(in: PixelSize(width: 200, height: 100))
        #expect(bounds.columns.lowerBound >= 0 && bounds.columns.upperBound <= 200)
        #expect(bounds.rows.lowerBound >= 0 && bounds.rows.upperBound <= 100)
    }

    @Test("pixelBounds of clearly defined extreme rects")
    func pixelBoundsExtremeValues() {
        let size = PixelSize(width: 200, height: 100)
        #expect(NormalizedRect(x: 1e300, y: 0, width: 1, height: 1).pixelBounds(in: size).columns.isEmpty)
        #expect(NormalizedRect(x: 0, y: 0, width: .infinity, height: 1).pixelBounds(in: size).columns == 0..<200)
        #expect(NormalizedRect(x: .nan, y: 0, width: 1, height: 1).pixelBounds(in: size).columns.isEmpty)
    }
}

@Suite("PixelSize")
struct PixelSizeTests {
    @Test("Parses WIDTHxHEIGHT", arguments: [
        ("1920x1080", 1920, 1080), ("640x480", 640, 480), ("1X1", 1, 1), ("3840X2160", 3840, 2160),
    ])
    func parses(text: String, width: Int, height: Int) throws {
        let size = try #require(PixelSize(text))
        #expect(size == PixelSize(width: width, height: height))
    }

    @Test("Rejects malformed sizes", arguments: [
        "", "1920", "x", "1920x", "x1080", "1920x1080x", "x1920x1080", "1920xx1080", "1920x1080x720",
        "0x1080", "1920x0", "-1920x1080", "1920x-1080", "1920 x 1080", " 1920x1080", "1920×1080", "axb", "1.5x2",
        "99999999999999999999x1",
    ])
    func rejects(text: String) {
        #expect(PixelSize(text) == nil)
    }

    @Test("description and parsing round-trip; pixelCount multiplies")
    func descriptionRoundTrip() {
        let size = PixelSize(width: 1280, height: 720)
        #expect(size.description == "1280x720")
        #expect(PixelSize(size.description) == size)
        #expect(size.pixelCount == 921_600)
    }
}
