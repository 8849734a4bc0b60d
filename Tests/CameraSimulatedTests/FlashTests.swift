import CameraCapture
import CameraCore
import Foundation
import Testing
@testable import CameraSimulated

/// The simulated flash: a one-frame pulse of light from the camera that falls off with the square
/// of depth, reported in the lit frame's metadata.
@Suite struct FlashTests {
    @Test("A flash request fires once, on the next frame scheduled, and that frame's metadata says at what power")
    func firesOnceOnTheNextFrame() async throws {
        let camera = try rawCamera(.nightStreet, seconds: 1.0 / 30, width: 32, height: 24)
        let before = try await camera.nextFrame()
        try camera.updateControls { $0.flashPower = 0.5 }
        #expect(camera.requestedControls.flashPower == nil, "a trigger, not a setting the camera keeps")
        let lit = try await camera.nextFrame(), after = try await camera.nextFrame()
        #expect(before.metadata.flashPower == nil)
        #expect(lit.metadata.flashPower == 0.5)
        #expect(after.metadata.flashPower == nil)
    }

    @Test("Stopping the stream drops a flash that has not fired")
    func stopDropsAPendingFlash() async throws {
        let camera = try rawCamera(.nightStreet, seconds: 1.0 / 30, width: 32, height: 24)
        _ = try await camera.nextFrame()
        try camera.updateControls { $0.flashPower = 1 }
        camera.stopStreaming()
        try camera.startStreaming()
        #expect(try await camera.nextFrame().metadata.flashPower == nil)
    }

    @Test("A flash power outside 0…1 is refused naming the flash, and nothing changes")
    func powerOutOfRange() throws {
        let camera = try SimulatedCamera(scene: .nightStreet, format: smallFormat(32, 24))
        let before = camera.requestedControls
        let error = try #require(throws: ValueOutOfRangeError.self) { try camera.updateControls { $0.flashPower = 1.5 } }
        #expect(error.description == "flash power 1.5 is outside the supported range 0…1 — choose a value in that range")
        #expect(camera.requestedControls == before)
    }

    @Test("The flash is not the scene's light: after step-change's light steps up 4 EV, the same flash adds the same to the card")
    func notScaledByTheScenesLight() async throws {
        let camera = try rawCamera(.stepChange, seconds: 1.0 / 8000, width: 64, height: 48)
        func added() async throws -> Double {
            let ambient = try await camera.nextFrame()
            try camera.updateControls { $0.flashPower = 0.25 }
            let lit = try await camera.nextFrame()
            let card = camera.groundTruth(for: lit).subjectMask
            return mean(rawValues(lit, mask: card)) - mean(rawValues(ambient, mask: card))
        }
        let before = try await added()
        while try await camera.nextFrame().presentationTime.seconds < 1.1 {}
        let after = try await added()
        #expect(abs(after / before - 1) < 0.03, "before the step \(before) raw, after \(after) raw")
    }

    @Test("A zoomed flash frame is the zoomed view lit: at 2x the flash adds to the grey card what it adds at 1x")
    func zoomedFlash() async throws {
        let camera = try rawCamera(.grayCard, seconds: 1.0 / 8000, width: 64, height: 48)
        func added(zoom: Double) async throws -> Double {
            try camera.updateControls { $0.zoomFactor = zoom }
            var ambient = try await camera.nextFrame()
            while ambient.metadata.zoomFactor != zoom { ambient = try await camera.nextFrame() }
            try camera.updateControls { $0.flashPower = 0.25 }
            let lit = try await camera.nextFrame()
            #expect(lit.metadata.zoomFactor == zoom && lit.metadata.flashPower == 0.25)
            let card = camera.groundTruth(for: lit).subjectMask
            return mean(rawValues(lit, mask: card)) - mean(rawValues(ambient, mask: card))
        }
        let wide = try await added(zoom: 1), zoomed = try await added(zoom: 2)
        #expect(wide > 100, "the flash adds \(wide) raw to the card")
        #expect(abs(zoomed / wide - 1) < 0.03, "at 1x \(wide) raw, at 2x \(zoomed) raw")
    }

    static let pairs = 4

    /// In night-street at 320x180, raw 12-bit at gain 16 and full power: the flash's added raw
    /// signal per pixel is albedo × energy × power / depth² × sensitivity × gain × 4095, whatever
    /// the shutter (a pulse, not a continuous light). The street near the camera (3–8 m) and the
    /// street and houses beyond 20 m must each get that — so the far ones get (far/near)² less —
    /// within four standard errors of the noise (averaged over `pairs` ambient and lit frames) plus
    /// 1% for the RGBE packing.
    @Test("The flash adds albedo × energy × power / depth² of exposure, whatever the shutter; farther surfaces get less by the square",
          arguments: [1.0 / 30, 1.0 / 60])
    func inverseSquare(seconds: Double) async throws {
        let size = PixelSize(width: 320, height: 180), gain = 16.0, power = 1.0
        let camera = try rawCamera(.nightStreet, seconds: seconds, gain: gain, width: size.width, height: size.height)
        var added = [Double](repeating: 0, count: size.width * size.height)
        for _ in 0..<Self.pairs {
            let ambient = try await camera.nextFrame()
            try camera.updateControls { $0.flashPower = power }
            let lit = try await camera.nextFrame()
            #expect(lit.metadata.exposureDuration == ambient.metadata.exposureDuration && lit.metadata.flashPower == power)
            for (i, (a, b)) in zip(rawValues(lit), rawValues(ambient)).enumerated() { added[i] += (a - b) / Double(Self.pairs) }
        }

        let scene = SimulatedScene.nightStreet.render(viewSize: size)
        let rawPerExposure = SensorModel().meanRawValue(luminance: 1, exposure: 1, gain: gain, fullScale: Int(rawFullScale))
        var perUnitLight: [(value: Double, tolerance: Double)] = []
        for (region, depths) in [("near", 3.0..<8.0), ("far", 20.0..<100.0)] {
            let pixels = scene.albedo.indices.filter { scene.albedo[$0] > 0 && depths.contains(Double(scene.depth[$0])) }
            let light = pixels.map { Double(scene.albedo[$0]) / Double(scene.depth[$0] * scene.depth[$0]) }
            let physics = light.map { $0 * Double(SimulatedCamera.flashEnergy) * power * rawPerExposure }
            let values = pixels.map { added[$0] }
            let (measured, predicted) = (mean(values), mean(physics))
            let noise = zip(values, physics).map { $0 - $1 }
            let tolerance = (4 * (variance(noise) / Double(noise.count)).squareRoot() + 0.01 * predicted) / predicted
            #expect(abs(measured / predicted - 1) < tolerance,
                    "\(region): measured \(measured) raw, physics says \(predicted) (tolerance \(tolerance * 100)%)")
            perUnitLight.append((measured / mean(light), tolerance))
        }
        let (near, far) = (perUnitLight[0], perUnitLight[1])
        #expect(abs(far.value / near.value - 1) < near.tolerance + far.tolerance,
                "the same flash per unit of albedo / depth² near (\(near.value)) and far (\(far.value))")
    }
}
