import CameraCapture
import CameraCore
@testable import CameraExposure
import CameraMetering
import CameraSimulated
import Foundation
import Testing

@Suite struct WhiteBalanceTests {
    // MARK: Model

    @Test(arguments: [2000.0, 2800, 3500, 4500, 5500, 6500, 7500, 9000, 12000])
    func temperatureToGainsToTemperatureRoundTrips(kelvin: Double) throws {
        let gains = try WhiteBalanceGains(temperature: kelvin, maximumGain: .infinity)
        let light = try #require(gains.colorTemperature)
        #expect(abs(light.kelvin - kelvin) < 1, "\(kelvin) K → \(gains) → \(light)")
        #expect(abs(light.tint) < 0.01)
    }

    @Test(arguments: [(3000.0, 5.0), (5000, -8), (8000, 12)])
    func tintRoundTrips(kelvin: Double, tint: Double) throws {
        let light = try #require(ColorTemperature(relativeRGB: ColorTemperature(kelvin, tint: tint).relativeRGB))
        #expect(abs(light.kelvin - kelvin) < 1)
        #expect(abs(light.tint - tint) < 0.01)
    }

    @Test func referenceLightIsWhiteAndLightsHaveUnitLuminance() {
        let reference = ColorTemperature.reference.relativeRGB
        #expect(abs(reference.x - 1) < 1e-12 && abs(reference.y - 1) < 1e-12 && abs(reference.z - 1) < 1e-12)
        for kelvin in [2000.0, 3000, 5000, 9000, 12000] {
            let rgb = ColorTemperature(kelvin).relativeRGB
            #expect(abs(ColorTemperature.luminance(rgb) - 1) < 1e-12)
        }
        let warm = ColorTemperature(2800).relativeRGB, cool = ColorTemperature(9000).relativeRGB
        #expect(warm.x > warm.y && warm.y > warm.z, "tungsten is red-heavy: \(warm)")
        #expect(cool.z > cool.y && cool.y > cool.x, "shade is blue-heavy: \(cool)")
    }

    @Test func gainsAreNormalizedToAMinimumOfOneAndClamped() throws {
        let gains = WhiteBalanceGains(red: 0.5, green: 1, blue: 6).normalised(maximumGain: 8)
        #expect(gains == WhiteBalanceGains(red: 1, green: 2, blue: 8))
        for kelvin in [2000.0, 2800, 4500, 6500, 9000, 12000] {
            let gains = try WhiteBalanceGains(temperature: kelvin)
            let values = [gains.red, gains.green, gains.blue]
            #expect(values.min() == 1, "\(kelvin) K: \(gains)")
            #expect(values.max()! <= WhiteBalanceGains.defaultMaximumGain)
        }
        // 2000 K has almost no blue in Rec. 709: its blue gain hits the ceiling.
        let clamped = try WhiteBalanceGains(temperature: 2000, maximumGain: 4)
        #expect(clamped.blue == 4 && clamped.red == 1)
        #expect(try WhiteBalanceGains(temperature: 6500) == .unity)
    }

    @Test func manualTemperatureGivesTheGainsOfThatLight() throws {
        var awb = AutoWhiteBalance()
        try awb.setMode(.manualTemperature(ColorTemperature(3200)))
        let expected = WhiteBalanceGains(neutralisingRGB: ColorTemperature(3200).relativeRGB)
        #expect(awb.gains == expected)
        #expect(awb.state == .locked)
        // Warm light needs blue lifted most, red least.
        #expect(awb.gains.red == 1 && awb.gains.blue > awb.gains.green && awb.gains.green > 1)
        let rgb = ColorTemperature(3200).relativeRGB
        #expect(abs(awb.gains.green / awb.gains.red - rgb.x / rgb.y) < 1e-9)
        #expect(abs(awb.gains.blue / awb.gains.red - rgb.x / rgb.z) < 1e-9)
        // Manual gains are taken as given.
        let manual = WhiteBalanceGains(red: 1.5, green: 1, blue: 2.25)
        try awb.setMode(.manualGains(manual))
        #expect(awb.gains == manual)
    }

    @Test func outOfRangeManualValuesThrowNamingTheRange() {
        var awb = AutoWhiteBalance()
        let tooCold = #expect(throws: ValueOutOfRangeError.self) { try awb.setMode(.manualTemperature(ColorTemperature(1500))) }
        #expect(tooCold?.range == 2000...12000)
        #expect(tooCold?.description.contains("2000…12000 K") == true)
        #expect(tooCold?.setting == "white-balance temperature")
        let tinted = #expect(throws: ValueOutOfRangeError.self) { try awb.setMode(.manualTemperature(ColorTemperature(5000, tint: 80))) }
        #expect(tinted?.range == -50...50)
        let gain = #expect(throws: ValueOutOfRangeError.self) {
            try awb.setMode(.manualGains(WhiteBalanceGains(red: 1, green: 17, blue: 1)))
        }
        #expect(gain?.setting == "green white-balance gain")
        #expect(gain?.range == 1...16)
        #expect(throws: ValueOutOfRangeError.self) { try awb.setMode(.manualGains(WhiteBalanceGains(red: 0.5, green: 1, blue: 1))) }
        #expect(throws: ValueOutOfRangeError.self) { try WhiteBalanceGains(temperature: 13000) }
        #expect(awb.mode == .auto, "a rejected mode leaves the mode alone")
        let camera = #expect(throws: ValueOutOfRangeError.self) {
            try SimulatedCamera(scene: .grayCard, format: whiteBalanceFormat).setIlluminant(temperature: 1000)
        }
        #expect(camera?.range == 2000...12000)
        #expect(camera?.setting == "illuminant colour temperature")
    }

    // MARK: Simulated scenes

    static let temperatures: [Double] = [2800, 3500, 4500, 5500, 6500, 7500]

    @Test(arguments: [SimulatedScene.grayCard, .windowInterior], temperatures)
    func autoWhiteBalanceFindsTheLightAndNeutralizesGray(scene: SimulatedScene, kelvin: Double) async throws {
        let camera = try whiteBalanceCamera(scene, kelvin: kelvin)
        var awb = AutoWhiteBalance()
        var frame = try await camera.nextFrame()
        for _ in 0..<24 {
            try camera.updateControls { $0.whiteBalance = awb.update(frame: frame) }
            frame = try await camera.nextFrame()
        }
        let estimate = try #require(awb.estimate)
        #expect(abs(estimate.kelvin - kelvin) <= 150, "\(scene.name) at \(kelvin) K: estimated \(estimate)")
        #expect(awb.state == .converged)
        #expect(frame.metadata.whiteBalanceGains == awb.gains)
        // The corrected subject is grey: R, G and B within 3%, with no gain clamped (this
        // sRGB-primaries sensor needs 8.6x on blue at 2800 K, within the maximum of 16).
        let rgb = meanLinearRGB(frame, mask: camera.groundTruth(for: frame).subjectMask)
        let unclamped = WhiteBalanceGains(neutralising: estimate, maximumGain: .infinity)
        let shortfall = awb.gains.vector / unclamped.vector
        #expect(shortfall.max() < 1.002 && shortfall.min() > 0.998, "no clamping at \(kelvin) K: \(awb.gains) vs \(unclamped)")
        #expect(rgb.max() / rgb.min() - 1 < 0.03, "\(scene.name) at \(kelvin) K: subject RGB \(rgb)")
    }

    @Test(arguments: temperatures)
    func openLoopEstimateFromOneFrame(kelvin: Double) async throws {
        let camera = try whiteBalanceCamera(.grayCard, kelvin: kelvin)
        var frame = try await camera.nextFrame()
        for _ in 0..<2 { frame = try await camera.nextFrame() }  // the requested exposure applies at frame 2
        let estimate = try #require(WhiteBalanceStatistics(frame: frame).estimate())
        #expect(abs(estimate.kelvin - kelvin) <= 150, "open loop at \(kelvin) K: estimated \(estimate)")
    }

    @Test(arguments: [3000.0, 9000])
    func illuminantScalesEachRawChannelAndKeepsTheExposure(kelvin: Double) async throws {
        func cardMeans(_ illuminant: Double?) async throws -> SIMD3<Double> {
            let camera = try whiteBalanceCamera(.grayCard, kelvin: illuminant, pixelFormat: .bayer16(.rggb, significantBits: 12))
            var frame = try await camera.nextFrame()
            for _ in 0..<2 { frame = try await camera.nextFrame() }
            let buffer = frame.buffer
            let black = Double(try #require(frame.metadata.rawCalibration).blackLevel)
            var sums = SIMD3<Double>.zero, counts = SIMD3<Double>.zero
            // The card's centre (u 0.3…0.7, v 0.25…0.75), by mosaic colour.
            for y in 24..<66 {
                for x in 48..<112 {
                    let channel = y.isMultiple(of: 2) ? (x.isMultiple(of: 2) ? 0 : 1) : (x.isMultiple(of: 2) ? 1 : 2)
                    sums[channel] += Double(buffer[sample16: x, y: y]) - black
                    counts[channel] += 1
                }
            }
            return sums / counts
        }
        let own = try await cardMeans(nil), lit = try await cardMeans(kelvin)
        let expected = ColorTemperature(kelvin).relativeRGB
        let ratio = lit / own
        for channel in 0..<3 {
            #expect(abs(ratio[channel] / expected[channel] - 1) < 0.02, "\(kelvin) K channel \(channel): \(ratio) vs \(expected)")
        }
        #expect(abs(ColorTemperature.luminance(lit) / ColorTemperature.luminance(own) - 1) < 0.01, "luminance unchanged")
    }

    @Test func grayWorldFromFrameStatisticsChannelMeans() async throws {
        let camera = try whiteBalanceCamera(.grayCard, kelvin: 4500)
        let applied = WhiteBalanceGains(red: 1, green: 1.1, blue: 1.4)
        try camera.updateControls { $0.whiteBalance = applied }
        var frame = try await camera.nextFrame()
        for _ in 0..<2 { frame = try await camera.nextFrame() }
        let statistics = try FrameAnalyzer().analyze(frame.buffer)
        let estimate = try #require(WhiteBalanceStatistics(statistics, appliedGains: applied).estimate())
        #expect(abs(estimate.kelvin - 4500) <= 150, "estimated \(estimate)")
    }

    @Test func lockedGainsStayThroughAChangeOfLight() async throws {
        let camera = try whiteBalanceCamera(.grayCard, kelvin: 3500)
        var awb = AutoWhiteBalance()
        var frame = try await camera.nextFrame()
        for _ in 0..<20 {
            try camera.updateControls { $0.whiteBalance = awb.update(frame: frame) }
            frame = try await camera.nextFrame()
        }
        let tungstenGains = awb.gains
        awb.lock()
        #expect(awb.state == .locked)
        try camera.setIlluminant(temperature: 7500)
        for _ in 0..<10 {
            try camera.updateControls { $0.whiteBalance = awb.update(frame: frame) }
            frame = try await camera.nextFrame()
        }
        #expect(awb.gains == tungstenGains)
        #expect(frame.metadata.whiteBalanceGains == tungstenGains)
        // The frame is now blue: the locked balance no longer fits the light.
        let rgb = meanLinearRGB(frame, mask: camera.groundTruth(for: frame).subjectMask)
        #expect(rgb.z > rgb.x * 1.3, "locked under 7500 K: \(rgb)")
        // Unlocked, it follows the light again.
        try awb.setMode(.auto)
        for _ in 0..<20 {
            try camera.updateControls { $0.whiteBalance = awb.update(frame: frame) }
            frame = try await camera.nextFrame()
        }
        #expect(abs(try #require(awb.estimate).kelvin - 7500) <= 150)
    }

    @Test func gainsMoveSmoothlyInTheLogDomain() async throws {
        let camera = try whiteBalanceCamera(.grayCard, kelvin: 3000)
        var awb = AutoWhiteBalance()
        var frame = try await camera.nextFrame()
        for _ in 0..<2 { frame = try await camera.nextFrame() }
        let target = WhiteBalanceGains(neutralising: try #require(WhiteBalanceStatistics(frame: frame).estimate()))
        let first = awb.update(frame: frame)
        #expect(awb.state == .searching)
        // One step covers 30% of the way in log gain: blue goes from 1 to target^0.3.
        #expect(abs(log(first.blue / first.red) - 0.3 * log(target.blue / target.red)) < 0.01)
    }

    @Test func saturatedAndClippedRegionsAreRejected() throws {
        // 60% of the frame grey under 3500 K, 40% a saturated green, a clipped strip on top.
        let light = ColorTemperature(3500).relativeRGB
        let buffer = try PixelBuffer(format: .bgra8, width: 160, height: 90)
        let pixels = buffer.baseAddress(plane: 0)
        for y in 0..<90 {
            for x in 0..<160 {
                let linear: SIMD3<Double> = y < 10 ? SIMD3(1, 1, 1) : x < 64 ? SIMD3(0.04, 0.3, 0.05) : light * 0.2
                let encoded = linear.clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1)).encodedSRGB
                let pixel = pixels + y * buffer.planes[0].bytesPerRow + x * 4
                pixel.storeBytes(of: encoded.z, toByteOffset: 0, as: UInt8.self)
                pixel.storeBytes(of: encoded.y, toByteOffset: 1, as: UInt8.self)
                pixel.storeBytes(of: encoded.x, toByteOffset: 2, as: UInt8.self)
                pixel.storeBytes(of: 255, toByteOffset: 3, as: UInt8.self)
            }
        }
        let statistics = WhiteBalanceStatistics(buffer: buffer, appliedGains: .unity)
        let estimate = try #require(statistics.estimate())
        #expect(abs(estimate.kelvin - 3500) <= 150, "estimated \(estimate)")
        // Plain grey world over every block is pulled far off by the green.
        var noRejection = WhiteBalanceStatistics.Rejection()
        noRejection.maximumLocusDistance = .infinity
        noRejection.sameLightDistance = .infinity
        let plain = try #require(statistics.grayWorld(noRejection))
        #expect(plain.y > plain.x, "the green dominates plain grey world: \(plain)")
    }

    @Test func grayFramesGiveNoEstimateAndKeepTheGains() async throws {
        let format = DeviceFormat(size: PixelSize(width: 160, height: 90), pixelFormat: .gray8,
                                  frameRateRanges: [FrameRateRange(minimum: 1, maximum: 30)])
        let camera = try SimulatedCamera(scene: .grayCard, format: format)
        try camera.startStreaming()
        var awb = AutoWhiteBalance(gains: WhiteBalanceGains(red: 1, green: 1.2, blue: 2))
        let gains = awb.update(frame: try await camera.nextFrame())
        #expect(gains == WhiteBalanceGains(red: 1, green: 1.2, blue: 2))
        #expect(awb.estimate == nil)
    }

    @Test(arguments: [PixelFormat.nv12(.video), .yuyv422, .bayer16(.rggb, significantBits: 12)])
    func otherPixelFormatsGiveTheSameEstimate(format: PixelFormat) async throws {
        let camera = try whiteBalanceCamera(.grayCard, kelvin: 4000, pixelFormat: format)
        try camera.updateControls { $0.whiteBalance = WhiteBalanceGains(red: 1, green: 1.3, blue: 2) }
        var frame = try await camera.nextFrame()
        for _ in 0..<2 { frame = try await camera.nextFrame() }
        let estimate = try #require(WhiteBalanceStatistics(frame: frame).estimate())
        #expect(abs(estimate.kelvin - 4000) <= 150, "\(format): estimated \(estimate)")
    }
}
