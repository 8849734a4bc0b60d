import CameraCapture
import CameraCore
import CameraExposure
import CameraSimulated
import Testing

/// `configure` on a device: a change commits as a whole or not at all, and a rejected value names
/// the setting and its range.
@Suite struct DeviceConfigurationTests {
    /// A value outside what the simulated camera supports, and the message it must give.
    enum OutOfRange: String, CaseIterable, Sendable {
        case bias, zoom, customDuration, customGain, lensPosition, torch, exposurePoint, focusPoint

        func apply(to settings: inout DeviceSettings) {
            switch self {
            case .bias: settings.exposureBias = 9
            case .zoom: settings.zoomFactor = 12
            case .customDuration: settings.exposureMode = .custom(duration: 0.5, gain: 2)
            case .customGain: settings.exposureMode = .custom(duration: 0.01, gain: 100)
            case .lensPosition: settings.focusMode = .manual(lensPosition: 1.5)
            case .torch: settings.torchLevel = 2
            case .exposurePoint: settings.exposurePoint = NormalizedPoint(x: 1.2, y: 0.5)
            case .focusPoint: settings.focusPoint = NormalizedPoint(x: 0.5, y: -0.1)
            }
        }

        var message: String {
            let problem = switch self {
            case .bias: "exposure bias 9 EV is outside the supported range -8…8 EV"
            case .zoom: "zoom factor 12 x is outside the supported range 1…10 x"
            case .customDuration: "exposure duration 0.5 s is outside the supported range 2e-05…0.25 s"
            case .customGain: "analogue gain 100 is outside the supported range 1…64"
            case .lensPosition: "lens position 1.5 is outside the supported range 0…1"
            case .torch: "torch level 2 is outside the supported range 0…1"
            case .exposurePoint: "exposure point x 1.2 is outside the supported range 0…1"
            case .focusPoint: "focus point y -0.1 is outside the supported range 0…1"
            }
            return problem + " — choose a value in that range"
        }
    }

    struct Abandoned: Error {}

    @Test func aValidChangeCommitsAsAWhole() throws {
        let camera = try SimulatedCamera(scene: .grayCard)
        let hd60 = try #require(camera.formats.first { $0.size == PixelSize(width: 1280, height: 720) && $0.pixelFormat == .nv12(.video) })
        try camera.configure { settings in
            settings.frameRate = 50                 // beyond the 1080p format's 30 until the format changes too
            settings.activeFormat = hd60
            settings.exposureMode = .locked
            settings.exposureBias = 0.7
            settings.exposurePoint = NormalizedPoint(x: 0.4, y: 0.6)
            settings.zoomFactor = 2
            settings.torchLevel = 0.5
        }
        let settings = camera.settings
        #expect(camera.activeFormat == hd60)
        #expect(settings.frameRate == 50)
        #expect(settings.exposureMode == .locked)
        #expect(settings.exposureBias == 0.7)
        #expect(settings.exposurePoint == NormalizedPoint(x: 0.4, y: 0.6))
        #expect(settings.zoomFactor == 2)
        #expect(settings.torchLevel == 0.5)
        #expect(settings.locks == ThreeAControls.Locks(ae: true, af: false, awb: false))
        #expect(camera.settingsStore.versioned.generation == 1)
    }

    @Test(arguments: OutOfRange.allCases)
    func anOutOfRangeValueNamesTheSettingAndRangeAndChangesNothing(value: OutOfRange) throws {
        let camera = try SimulatedCamera(scene: .grayCard)
        let before = camera.settings
        let error = #expect(throws: ValueOutOfRangeError.self) {
            try camera.configure { settings in
                settings.exposureBias = 1           // a valid edit that must not stick
                value.apply(to: &settings)
            }
        }
        #expect(error?.description == value.message)
        #expect(camera.settings == before)
        #expect(camera.settingsStore.versioned.generation == 0)
    }

    @Test func aBodyThatThrowsChangesNothing() throws {
        let camera = try SimulatedCamera(scene: .grayCard)
        let before = camera.settings
        #expect(throws: Abandoned.self) {
            try camera.configure { settings in
                settings.exposureBias = 2
                settings.zoomFactor = 3
                throw Abandoned()
            }
        }
        #expect(camera.settings == before)
        #expect(camera.settingsStore.versioned.generation == 0)
    }

    @Test func anUnknownFormatIsRejectedListingTheFormats() throws {
        let camera = try SimulatedCamera(scene: .grayCard)
        let unknown = DeviceFormat(size: PixelSize(width: 333, height: 222), pixelFormat: .bgra8,
                                   frameRateRanges: [FrameRateRange(minimum: 1, maximum: 30)])
        let error = #expect(throws: CaptureError.self) {
            try camera.configure { $0.activeFormat = unknown }
        }
        guard case .invalidConfiguration(let message)? = error else {
            Issue.record("expected invalidConfiguration, got \(String(describing: error))")
            return
        }
        #expect(message.hasPrefix("the device has no format 333x222 bgra8 @ 1–30 fps — choose one of: 640x480 bgra8 @ 1–120 fps; "))
        #expect(message.contains("1920x1080 nv12 @ 30–60 fps; "))
        #expect(message.hasSuffix("3840x2160 bayer16-rggb12 @ 1–30 fps"))
        #expect(camera.activeFormat == SimulatedCamera.defaultFormat)
    }

    @Test func aFrameRateOutsideTheFormatNamesItsRange() throws {
        let camera = try SimulatedCamera(scene: .grayCard)
        let error = #expect(throws: ValueOutOfRangeError.self) {
            try camera.configure { $0.frameRate = 45 }
        }
        #expect(error?.description == "frame rate for 1920x1080 45 fps is outside the supported range 1…30 fps — choose a value in that range")
        #expect(camera.settings.frameRate == 30)
    }

    @Test func aCameraMadeInAnOddSizeOffersIt() throws {
        let small = DeviceFormat(size: PixelSize(width: 320, height: 180), pixelFormat: .bgra8,
                                 frameRateRanges: [FrameRateRange(minimum: 1, maximum: 30)])
        let camera = try SimulatedCamera(scene: .grayCard, format: small, frameRate: 24)
        #expect(camera.formats == SimulatedCamera.standardFormats + [small])
        #expect(camera.activeFormat == small)
        #expect(camera.settings.frameRate == 24)
        let standard = try SimulatedCamera(scene: .grayCard)
        #expect(standard.formats == SimulatedCamera.standardFormats)
        #expect(standard.capabilities.digitalGain == 1...16)
        #expect(standard.authorization == .authorized)
    }
}
