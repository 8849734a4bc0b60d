import CameraCore
import Foundation
import Testing
@testable import CameraSimulated

/// Equirectangular panoramas are seen through a pinhole camera where yaw and pitch say.
@Suite struct PanoramaProjectionTests {
    /// A dim panorama with one bright spot at (`longitude`, `latitude`) degrees.
    private func panorama(sunLongitude longitude: Double, latitude: Double) -> RadianceImage {
        var image = RadianceImage(width: 512, height: 256)
        for y in 0..<256 { for x in 0..<512 { image[x, y] = SIMD3(repeating: 1) } }
        let x = Int(((longitude / 360) + 0.5) * 512), y = Int((0.5 - latitude / 180) * 256)
        for dy in -1...1 { for dx in -1...1 { image[(x + dx + 512) % 512, y + dy] = SIMD3(repeating: 1e6) } }
        return image
    }

    /// Where the brightest pixel of a projected view lies.
    private func brightest(_ image: RadianceImage) -> (x: Int, y: Int) {
        var best = (x: 0, y: 0, value: Float(0))
        for y in 0..<image.height {
            for x in 0..<image.width where image.luminance(x: x, y: y) > best.value {
                best = (x, y, image.luminance(x: x, y: y))
            }
        }
        return (best.x, best.y)
    }

    @Test(arguments: [(30.0, 10.0), (-120.0, -20.0), (175.0, 40.0)])
    func lookingAtTheSunCentersIt(longitude: Double, latitude: Double) {
        let view = SimulatedScene.ViewDirection(yaw: longitude, pitch: latitude, fov: 60)
        let projected = SimulatedScene.project(panorama(sunLongitude: longitude, latitude: latitude), view: view,
                                               size: PixelSize(width: 160, height: 120))
        let spot = brightest(projected)
        #expect(abs(spot.x - 80) <= 2 && abs(spot.y - 60) <= 2, "sun at \(spot)")
    }

    @Test func yawingLeftMovesTheSunRightByTheTangent() {
        let view = SimulatedScene.ViewDirection(yaw: 10, pitch: 0, fov: 90)
        let projected = SimulatedScene.project(panorama(sunLongitude: 30, latitude: 0), view: view,
                                               size: PixelSize(width: 200, height: 100))
        let spot = brightest(projected)
        let focal = 100 / tan(45 * Double.pi / 180)
        #expect(abs(Double(spot.x) - (100 + focal * tan(20 * Double.pi / 180))) <= 2)
        #expect(abs(spot.y - 50) <= 2)
    }

    @Test("A pan paints the strip it sweeps, half a degree a column here, and slides along it at 10°/s after 1 s")
    func panSweepsAStrip() {
        // fov 60° in a 120-pixel view, turning 40°: a 200-pixel strip from yaw −30° to +70°.
        let scene = SimulatedScene.hdrImage(panorama(sunLongitude: 30, latitude: 0), named: "p.hdr",
                                            view: SimulatedScene.ViewDirection(yaw: 0, pitch: 0, fov: 60, pan: 40), subject: NormalizedRect(x: 0, y: 0.75, width: 1, height: 0.25))
        #expect(scene.name == "hdr:p.hdr,fov=60,pan=40")
        let strip = scene.render(viewSize: PixelSize(width: 120, height: 60))
        #expect(strip.width == 200)
        let spot = brightest(strip.radiance)
        #expect(abs(spot.x - 120) <= 2 && abs(spot.y - 30) <= 2, "sun at \(spot)")
        #expect(strip.subjectMask.filter { $0 == 1 }.count == 200 * 15, "the subject's rows, all along the strip")
        #expect(scene.viewOrigin(at: 1, imageWidth: 200, viewWidth: 120) == 0)
        #expect(scene.viewOrigin(at: 3, imageWidth: 200, viewWidth: 120) == 40)
        #expect(scene.viewOrigin(at: 9, imageWidth: 200, viewWidth: 120) == 80)
    }

    @Test func hdrScenesMarkTheSunInTheirGroundTruth() {
        let scene = SimulatedScene.hdrImage(panorama(sunLongitude: 0, latitude: 0), named: "test.hdr",
                                            view: SimulatedScene.ViewDirection(yaw: 0, pitch: 0, fov: 60))
        let image = scene.render(viewSize: PixelSize(width: 96, height: 72))
        #expect(image.sunMask.contains(1))
        #expect(image.sunMask.filter { $0 == 1 }.count < 30)
        #expect(scene.name == "hdr:test.hdr,fov=60")
    }

    @Test("A panorama's scene name carries the view options that differ from the default, so two views differ")
    func viewNames() {
        let image = panorama(sunLongitude: 0, latitude: 0)
        #expect(SimulatedScene.hdrImage(image, named: "p.hdr").name == "hdr:p.hdr")
        let turned = SimulatedScene.hdrImage(image, named: "p.hdr", view: SimulatedScene.ViewDirection(yaw: 90, pitch: -7.5, fov: 90))
        #expect(turned.name == "hdr:p.hdr,yaw=90,pitch=-7.5,fov=90")
        let flat = RadianceImage(width: 8, height: 6, samples: [Float](repeating: 1, count: 8 * 6 * 3))
        #expect(SimulatedScene.hdrImage(flat, named: "flat.hdr", view: SimulatedScene.ViewDirection(yaw: 90)).name == "hdr:flat.hdr")
    }

    @Test("An HDR image is scaled to the median luminance in place: its samples exist once")
    func hdrImageScalesInPlace() {
        var image = RadianceImage(width: 64, height: 32)
        for y in 0..<32 { for x in 0..<64 { image[x, y] = SIMD3(repeating: x < 32 ? 2 : 8) } }
        let storage = image.samples.withUnsafeBufferPointer { $0.baseAddress }
        let scaled = SimulatedScene.scaled(consume image)
        #expect(scaled.samples.withUnsafeBufferPointer { $0.baseAddress } == storage, "the decoded samples, not a copy")
        #expect(abs(scaled.luminance(x: 0, y: 0) - SimulatedScene.hdrMedianLuminance / 4) < 0.01)
        #expect(abs(scaled.luminance(x: 63, y: 31) - SimulatedScene.hdrMedianLuminance) < 0.01)
    }
}
