import CameraCapture
import CameraCodecs
import CameraCore
import CameraSimulated
import CameraStills
import Foundation
import Testing

/// The flash balanced with the picture auto-exposure renders: the flash's frame is rendered with
/// the render gain of the picture without it (shifted by the exposure the flash photo cuts), the
/// subject the flash reaches is lit up to where that picture puts its subject, and a subject
/// beyond the flash's reach is reported so.
@Suite("Flash balanced with the ambient picture")
struct FlashBalanceTests {
    /// The natural band around a subject's intent, in EV: from 1 EV under to ⅓ EV over.
    static let naturalBand = -1.0...(1.0 / 3)

    static func format(_ width: Int, _ height: Int) -> DeviceFormat {
        DeviceFormat(size: PixelSize(width: width, height: height), pixelFormat: .bgra8,
                     frameRateRanges: [FrameRateRange(minimum: 1, maximum: 30)])
    }

    /// A candle-lit room (the wall 1 cd/m²) with a grey card `distance` metres away in the lower
    /// left corner (4×6 of the 16×12 metering zones), in the candle's shadow (`shade` of the
    /// wall's light), the wall twice as far: auto-exposure's subject is the wall, the flash's the
    /// card, which needs the flash to catch up with the wall.
    static func shadowedCard(at distance: Float, shade: Float) -> SimulatedScene {
        SimulatedScene(name: "candlelit-shadowed-card", summary: "a grey card in shadow \(distance) m away before a candle-lit wall",
                       subjectIntent: 0) { size in
            var image = FlashPhotoTests.candlelitCard.render(viewSize: size)
            for y in 0..<size.height {
                for x in 0..<size.width {
                    let index = y * size.width + x
                    let inCard = 4 * x < size.width && 2 * y >= size.height
                    image.depth[index] = inCard ? distance : 2 * distance
                    image.subjectMask[index] = inCard ? 1 : 0
                    guard inCard else { continue }
                    image.albedo[index] = 0.18
                    for channel in 0..<3 { image.radiance.samples[3 * index + channel] *= shade }
                }
            }
            return image
        }
    }

    @Test("Night-street: the flash photo's street is at least as bright as the one without, both within the natural band",
          arguments: [(320, 180), (640, 360)])
    func nightStreet(width: Int, height: Int) async throws {
        let scene = SimulatedScene.nightStreet
        try await FlashPhotoTests.withSettledCamera(scene, format: Self.format(width, height)) { camera, photos, _ in
            let ambient = try await photos.capture(PhotoSettings(flashMode: .off))
            let lit = try await photos.capture(PhotoSettings(flashMode: .on))
            #expect(lit.flash.fired && !ambient.flash.fired)
            let without = try FlashPhotoTests.subjectError(of: ambient, camera: camera, bias: scene.subjectIntent)
            let with = try FlashPhotoTests.subjectError(of: lit, camera: camera, bias: scene.subjectIntent)
            #expect(with >= without, "the street is at \(with) EV from its intent with the flash, \(without) without")
            #expect(Self.naturalBand.contains(with) && Self.naturalBand.contains(without), "\(with), \(without) EV from its intent")
        }
    }

    /// The full flash adds 0.16 of full scale to the card 3 m away at ISO 400 (`SimulatedCamera.flashEnergy`),
    /// the wall 0.027 of ambient light: the card, at a quarter of that, needs an eighth of the power.
    @Test("A card in the shadow of a candle-lit room: the flash lights it at part power up to the picture's subject, the wall kept")
    func partPowerForANearSubject() async throws {
        try await FlashPhotoTests.withSettledCamera(Self.shadowedCard(at: 3, shade: 0.25), format: Self.format(320, 180)) { camera, photos, _ in
            let ambient = try await photos.capture(PhotoSettings(flashMode: .off))
            let lit = try await photos.capture(PhotoSettings(flashMode: .on))
            let exposure = try #require(lit.flash.exposure)
            #expect(exposure.power > FlashExposure.minimumPower && exposure.power < 1 && !exposure.isOutOfReach, "power \(exposure.power)")
            #expect(abs(exposure.expectedError) < 1e-9)
            let without = try FlashPhotoTests.subjectError(of: ambient, camera: camera, bias: 0)
            let with = try FlashPhotoTests.subjectError(of: lit, camera: camera, bias: 0)
            #expect(with > without + 1, "the card is at \(with) EV with the flash, \(without) without")
            let wall = try Self.wallLevel(of: lit) / Self.wallLevel(of: ambient)
            #expect(abs(log2(wall)) < 0.5, "the wall moved \(log2(wall)) EV")
        }
    }

    /// Metered as average, the picture is the sensor's (no render gain) and the card, 8 m away
    /// in a candle-lit room, is aimed at mid-grey: it needs (8 / 0.8)² = 100 times the power that
    /// lit it at 0.8 m.
    @Test("The card 8 m away, metered as average: out of reach, the flash fires at full power, says so, and lights the card some")
    func outOfReach() async throws {
        let far = SimulatedScene(name: "gray-card-candlelit-far", summary: "the candle-lit card 8 m away", subjectIntent: 0) { size in
            var image = FlashPhotoTests.candlelitCard.render(viewSize: size)
            image.depth = image.depth.map { $0 * 10 }
            return image
        }
        try await FlashPhotoTests.withSettledCamera(far, meteringMode: .average) { camera, photos, _ in
            let ambient = try await photos.capture(PhotoSettings(flashMode: .off))
            let photo = try await photos.capture(PhotoSettings(flashMode: .on))
            let exposure = try #require(photo.flash.exposure)
            #expect(exposure.power == 1 && photo.metadata.flashPower == 1, "\(exposure)")
            #expect(exposure.isOutOfReach && exposure.expectedError < -FlashExposure.reachTolerance, "\(exposure)")
            let with = try FlashPhotoTests.subjectError(of: photo, camera: camera, bias: 0)
            #expect(with < -FlashExposure.reachTolerance, "the card is at \(with) EV from mid-grey")
            #expect(!ambient.flash.fired)
        }
    }

    /// The mean linear level of the photo's upper half (the wall, above the card).
    static func wallLevel(of photo: CapturedPhoto) throws -> Double {
        let image = try JPEGDecoder().decode(photo.data)
        let rows = image.height / 2
        var sum = 0.0
        image.withUnsafeBytes(plane: 0) { bytes in
            let bytesPerRow = image.planes[0].bytesPerRow
            for y in 0..<rows {
                for x in 0..<image.width {
                    for channel in 0..<3 { sum += Double(SRGB.linearOf8Bit[Int(bytes[y * bytesPerRow + 4 * x + channel])]) }
                }
            }
        }
        return sum / Double(3 * rows * image.width)
    }
}
