import CameraCore
import Testing

private typealias ViewPoint = PreviewGeometry.ViewPoint

/// A 1920×1080 sensor shown in a phone-shaped 375×812 view, so that every gravity and rotation
/// crops, letterboxes or stretches.
private func phoneGeometry(_ gravity: VideoGravity, _ rotation: Rotation, mirrored: Bool) throws -> PreviewGeometry {
    try PreviewGeometry(imageSize: PixelSize(width: 1920, height: 1080), viewWidth: 375, viewHeight: 812,
                        gravity: gravity, rotation: rotation, mirrored: mirrored)
}

private func isClose(_ a: NormalizedPoint?, _ b: NormalizedPoint, tolerance: Double = 1e-12) -> Bool {
    guard let a else { return false }
    return abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
}

private func isClose(_ a: ViewPoint, _ b: ViewPoint, tolerance: Double = 1e-9) -> Bool {
    abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
}

/// 11 evenly spaced values from 0 to `length`, ends included.
private func grid(_ length: Double) -> [Double] {
    (0...10).map { Double($0) * length / 10 }
}

@Suite("PreviewGeometry")
struct PreviewGeometryTests {
    @Test("view → device → view returns the view point wherever the image is shown",
          arguments: VideoGravity.allCases, Rotation.allCases)
    func viewRoundTrip(gravity: VideoGravity, rotation: Rotation) throws {
        for mirrored in [false, true] {
            let geometry = try phoneGeometry(gravity, rotation, mirrored: mirrored)
            var shown = 0
            for x in grid(375) {
                for y in grid(812) {
                    let point = ViewPoint(x: x, y: y)
                    guard let device = geometry.devicePoint(fromViewPoint: point) else {
                        #expect(gravity == .fit, "only fit's letterbox bars show no image: \(point)")
                        continue
                    }
                    shown += 1
                    #expect(device.isInsideImage)
                    #expect(isClose(geometry.viewPoint(fromDevicePoint: device), point), "\(point) mirrored \(mirrored)")
                }
            }
            #expect(gravity == .fit ? (1..<121).contains(shown) : shown == 121)
        }
    }

    @Test("device → view → device returns the device point unless fill crops it off the view",
          arguments: VideoGravity.allCases, Rotation.allCases)
    func deviceRoundTrip(gravity: VideoGravity, rotation: Rotation) throws {
        for mirrored in [false, true] {
            let geometry = try phoneGeometry(gravity, rotation, mirrored: mirrored)
            var cropped = 0
            for x in grid(1) {
                for y in grid(1) {
                    let device = NormalizedPoint(x: x, y: y)
                    let view = geometry.viewPoint(fromDevicePoint: device)
                    let inView = (0...375).contains(view.x) && (0...812).contains(view.y)
                    if inView {
                        #expect(isClose(geometry.devicePoint(fromViewPoint: view), device), "\(device) mirrored \(mirrored)")
                    } else {
                        cropped += 1
                        #expect(geometry.devicePoint(fromViewPoint: view) == nil)
                    }
                }
            }
            #expect(gravity == .fill ? cropped > 0 : cropped == 0)
        }
    }

    @Test("fill crops a 16:9 image in a square view: the centre stays, the sides are cut")
    func fillKnownValues() throws {
        let geometry = try PreviewGeometry(imageSize: PixelSize(width: 1920, height: 1080),
                                           viewWidth: 1000, viewHeight: 1000, gravity: .fill)
        // The image is scaled to the view's height: 1000 × 1920 / 1080 points wide.
        let displayedWidth = 1000.0 * 1920 / 1080
        #expect(geometry.displayedRect.height == 1000)
        #expect(abs(geometry.displayedRect.width - displayedWidth) < 1e-9)
        #expect(isClose(geometry.devicePoint(fromViewPoint: ViewPoint(x: 500, y: 500)), .center))
        // 500 points left of the centre is 500 / displayedWidth = 0.28125 of the image.
        #expect(isClose(geometry.devicePoint(fromViewPoint: ViewPoint(x: 0, y: 500)), NormalizedPoint(x: 0.21875, y: 0.5)))
        #expect(isClose(geometry.devicePoint(fromViewPoint: ViewPoint(x: 1000, y: 0)), NormalizedPoint(x: 0.78125, y: 0)))
        // The image's left edge is cropped off, (1000 − displayedWidth) / 2 points left of the view.
        let leftEdge = geometry.viewPoint(fromDevicePoint: NormalizedPoint(x: 0, y: 0.5))
        #expect(isClose(leftEdge, ViewPoint(x: (1000 - displayedWidth) / 2, y: 500)))
        #expect(geometry.devicePoint(fromViewPoint: leftEdge) == nil)
    }

    @Test("fit letterboxes a 16:9 image in a square view; the bars show no image")
    func fitLetterbox() throws {
        let geometry = try PreviewGeometry(imageSize: PixelSize(width: 1920, height: 1080),
                                           viewWidth: 1000, viewHeight: 1000, gravity: .fit)
        // 562.5 points tall, with 218.75-point bars above and below.
        #expect(geometry.displayedRect == PreviewGeometry.ViewRect(x: 0, y: 218.75, width: 1000, height: 562.5))
        for point in [ViewPoint(x: 500, y: 0), ViewPoint(x: 500, y: 218), ViewPoint(x: 10, y: 782), ViewPoint(x: 999, y: 1000)] {
            #expect(geometry.devicePoint(fromViewPoint: point) == nil, "\(point)")
        }
        #expect(geometry.devicePoint(fromViewPoint: ViewPoint(x: 0, y: 218.75)) == NormalizedPoint(x: 0, y: 0))
        #expect(geometry.devicePoint(fromViewPoint: ViewPoint(x: 1000, y: 781.25)) == NormalizedPoint(x: 1, y: 1))
        #expect(geometry.devicePoint(fromViewPoint: ViewPoint(x: 250, y: 500)) == NormalizedPoint(x: 0.25, y: 0.5))
    }

    @Test("Points outside the view have no device point", arguments: VideoGravity.allCases)
    func outsideView(gravity: VideoGravity) throws {
        let geometry = try phoneGeometry(gravity, .degrees0, mirrored: false)
        for point in [ViewPoint(x: -1, y: 400), ViewPoint(x: 376, y: 400), ViewPoint(x: 100, y: -0.5), ViewPoint(x: 100, y: 813)] {
            #expect(geometry.devicePoint(fromViewPoint: point) == nil, "\(point)")
        }
    }

    @Test("A clockwise quarter turn shows the device's bottom-left at the view's top-left",
          arguments: VideoGravity.allCases)
    func rotation90Corners(gravity: VideoGravity) throws {
        // The rotated image is 1080×1920, the view's aspect ratio, so every gravity fills the view exactly.
        let geometry = try PreviewGeometry(imageSize: PixelSize(width: 1920, height: 1080), viewWidth: 540, viewHeight: 960,
                                           gravity: gravity, rotation: .degrees90)
        #expect(geometry.devicePoint(fromViewPoint: ViewPoint(x: 0, y: 0)) == NormalizedPoint(x: 0, y: 1))
        #expect(geometry.devicePoint(fromViewPoint: ViewPoint(x: 540, y: 0)) == NormalizedPoint(x: 0, y: 0))
        #expect(geometry.devicePoint(fromViewPoint: ViewPoint(x: 540, y: 960)) == NormalizedPoint(x: 1, y: 0))
        #expect(geometry.viewPoint(fromDevicePoint: NormalizedPoint(x: 1, y: 1)) == ViewPoint(x: 0, y: 960))
        // Consistent with Rotation.apply, which maps unrotated to rotated normalised points.
        let device = NormalizedPoint(x: 0.25, y: 0.125)
        let rotated = Rotation.degrees90.apply(to: device)
        #expect(geometry.viewPoint(fromDevicePoint: device) == ViewPoint(x: rotated.x * 540, y: rotated.y * 960))
    }

    @Test("Mirroring flips the view horizontally", arguments: VideoGravity.allCases, Rotation.allCases)
    func mirroringFlipsX(gravity: VideoGravity, rotation: Rotation) throws {
        let plain = try phoneGeometry(gravity, rotation, mirrored: false)
        let mirrored = try phoneGeometry(gravity, rotation, mirrored: true)
        for device in [NormalizedPoint(x: 0.25, y: 0.125), .center, NormalizedPoint(x: 1, y: 0.75)] {
            let plainPoint = plain.viewPoint(fromDevicePoint: device)
            #expect(isClose(mirrored.viewPoint(fromDevicePoint: device), ViewPoint(x: 375 - plainPoint.x, y: plainPoint.y)))
        }
    }

    @Test("Without rotation, mirroring maps view x to device 1 − x")
    func mirroringUnrotated() throws {
        let geometry = try PreviewGeometry(imageSize: PixelSize(width: 640, height: 480), viewWidth: 640, viewHeight: 480,
                                           gravity: .stretch, mirrored: true)
        #expect(geometry.devicePoint(fromViewPoint: ViewPoint(x: 0, y: 0)) == NormalizedPoint(x: 1, y: 0))
        #expect(geometry.devicePoint(fromViewPoint: ViewPoint(x: 160, y: 240)) == NormalizedPoint(x: 0.75, y: 0.5))
    }

    @Test("Stretch maps the whole image onto the whole view", arguments: Rotation.allCases)
    func stretch(rotation: Rotation) throws {
        let geometry = try phoneGeometry(.stretch, rotation, mirrored: false)
        #expect(geometry.displayedRect == PreviewGeometry.ViewRect(x: 0, y: 0, width: 375, height: 812))
        #expect(geometry.devicePoint(fromViewPoint: ViewPoint(x: 187.5, y: 406)) == .center)
    }

    @Test("A view dimension below one point throws, naming the value", arguments: [
        (0.0, 600.0, "preview view width 0 points"),
        (800, -5, "preview view height -5 points"),
        (.nan, 600, "preview view width nan points"),
    ])
    func invalidViewSize(width: Double, height: Double, message: String) throws {
        let error = try #require(throws: ValueOutOfRangeError.self) {
            try PreviewGeometry(imageSize: PixelSize(width: 640, height: 480), viewWidth: width, viewHeight: height, gravity: .fit)
        }
        #expect(error.description.hasPrefix(message + " is outside the supported range 1…1000000 points"))
    }

    @Test("An empty image size throws, naming the value")
    func invalidImageSize() throws {
        let error = try #require(throws: ValueOutOfRangeError.self) {
            try PreviewGeometry(imageSize: PixelSize(width: 640, height: 0), viewWidth: 100, viewHeight: 100, gravity: .fill)
        }
        #expect(error.setting == "preview image height")
        #expect(error.value == 0)
    }
}
