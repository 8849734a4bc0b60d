import CameraCapture
import CameraCore
import CameraExposure
import CameraMetering
import CameraRecording
import Foundation

/// The `/state` object (docs/CLI.md, "Viewfinder HTTP API", plus the page's `targetBrightness`,
/// `adviceZh`, `zoom` and `zoomRange`, and `raw`, the RAW toggle of `POST /api/raw`): the newest preview picture's analysis and exposure, where
/// the 3A loops stand, and the settings the user asked for — locks, points and modes as set, so
/// that a control's answer already shows its effect — and what the user should know of: the
/// exposure watchdog, an interruption of the camera, a format other than the one asked for — and
/// which camera is the main one (`camera`).
public struct ViewfinderState: Sendable, Encodable {
    /// The camera's sequence number of the frame described.
    public let frame: UInt64
    /// Mean Rec. 709 luma of the encoded image, 0…1.
    public let brightness: Double
    public let linearMean: Double
    /// The exposure compensation as set, in EV: a control's answer shows the bias it asked for,
    /// which the picture reaches along its ramp (`targetBrightness` follows the ramp).
    public let evBias: Double
    public let evRange: [Double]
    /// The shadows control as set (`/api/shadows`), and its range [min,max].
    public let shadows: Double
    public let shadowsRange: [Double]
    /// Seconds.
    public let exposureTime: Double
    /// The sensor's part of the two-part exposure: its shutter time in seconds (as `exposureTime`).
    public let sensorExposureTime: Double
    /// The render gain's part: EV the picture lifts (or lowers) the subject by.
    public let renderGainEV: Double
    /// Whether local tone mapping is on (`/api/hdr`).
    public let hdr: Bool
    /// The RAW toggle (`/api/raw`).
    public let raw: Raw
    /// What the exposure is set for, normalised (the tap's spot or the subject found), or null.
    public let subjectRegion: NormalizedRect?
    public let iso: Double
    /// Analogue gain (1 = base ISO).
    public let gain: Double
    public let aeState: String
    public let afState: String
    public let awbState: String
    public let locks: Locks
    /// The name `/api/metering` takes: average, centre, spot, matrix or sun.
    public let meteringMode: String
    /// The tap-to-meter point (normalised device point); null while the engine finds the subject.
    public let exposurePoint: NormalizedPoint?
    public let focusPoint: NormalizedPoint
    /// 64 bins of encoded luma, each the fraction of the samples in it.
    public let histogram: [Double]
    public let clippedFraction: Double
    public let sunFraction: Double
    public let advice: String
    public let adviceZh: String
    /// Preview frames per second.
    public let fps: Double
    public let drops: Int
    /// The main camera's `uniqueID`.
    public let device: String
    public let format: String
    /// Where the main camera faces, and the camera in the picture-in-picture.
    public let camera: Camera
    /// Where the brightness bar's target line goes: mid-grey at the current bias, encoded (0…1),
    /// and where the sun-aware AE meters, its aim under it (`SunAwareExposure.aim`).
    public let targetBrightness: Double
    public let zoom: Double
    public let zoomRange: [Double]
    public let flicker: Flicker
    public let whiteBalance: WhiteBalance
    public let focus: Focus
    /// The torch's level, 0 (off) … 1; null on a camera without a torch.
    public let torch: Double?
    /// Why the exposure watchdog last restarted auto-exposure (frames black or white, or the
    /// exposure stuck at a limit, for seconds), or null when it never had to.
    public let watchdog: String?
    /// Why the camera's frames stopped coming (`InterruptionReason`'s raw value:
    /// deviceInUseByAnotherClient, deviceRemoved, systemPressure) while the session waits for it,
    /// or null; the rest of the state is then the last frame's.
    public let interruption: String?
    /// Why the camera runs another format than the one asked for (`FormatChoice.fallbackReason`,
    /// e.g. "120 fps is not available at 1920x1080 (up to 60 fps); using 60 fps"), or null.
    public let formatFallback: String?
    /// The take's progress (`isRecording` false between takes), or null when the camera cannot record.
    let recording: RecordingState?
    /// The live stream's status (`LiveStreamOutput.Status`: state idle before the first), or null
    /// when the camera cannot be streamed.
    let live: LiveStreamOutput.Status?

    /// `camera`: the main camera's `position` (back, front, external or unspecified) and `pip`,
    /// the position of the camera shown in the inset, null with one camera.
    public struct Camera: Sendable, Encodable, Equatable {
        public let position: String
        public let pip: String?

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(position, forKey: .position)
            try container.encode(pip, forKey: .pip)
        }

        private enum CodingKeys: String, CodingKey {
            case position, pip
        }
    }

    /// `raw`: whether the shutter's photos are RAW + JPEG pairs (`on`), and why they cannot be
    /// (`unavailable`: the camera's format is not raw), null when they can.
    public struct Raw: Sendable, Encodable, Equatable {
        public let on: Bool
        public let unavailable: String?

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(on, forKey: .on)
            try container.encode(unavailable, forKey: .unavailable)
        }

        private enum CodingKeys: String, CodingKey {
            case on, unavailable
        }
    }

    /// Whether exposure, focus and white balance are locked.
    public struct Locks: Sendable, Encodable, Equatable {
        public let ae: Bool
        public let af: Bool
        public let awb: Bool
    }

    /// The state shown for `reading` on `device` (the main `camera`), while the session is
    /// interrupted for `interruption` (or not), with the format chosen for `formatFallback`, while
    /// `recording` and `live`, with the RAW toggle `raw`.
    init(_ reading: FrameMonitor.Reading, device: any CaptureDevice, camera: Camera, interruption: InterruptionReason?,
         formatFallback: String?, recording: RecordingState?, live: LiveStreamOutput.Status?, raw: Raw) {
        // What the viewer sees is measured on the picture; the scene's light sources on the sensor's frame.
        let frame = reading.frame, statistics = frame.pictureStatistics, metadata = frame.metadata, threeA = frame.threeA
        let settings = device.settings, capabilities = device.capabilities
        let flags = SceneFlags(statistics: frame.statistics, metadata: metadata, flicker: reading.frame.threeA.flicker)
        let counts = statistics.histogram.counts, total = Double(max(statistics.histogram.total, 1))
        self.frame = frame.sequenceNumber
        brightness = statistics.brightness
        linearMean = statistics.linearMean
        evBias = settings.exposureBias
        evRange = [capabilities.exposureBias.lowerBound, capabilities.exposureBias.upperBound]
        shadows = settings.shadows
        shadowsRange = [SunAwareExposure.shadowsRange.lowerBound, SunAwareExposure.shadowsRange.upperBound]
        exposureTime = metadata.exposureDuration.seconds
        sensorExposureTime = exposureTime
        renderGainEV = threeA.renderGain.ev
        hdr = settings.toneMapping == .local
        self.raw = raw
        subjectRegion = threeA.subjectRegion
        iso = metadata.iso
        gain = metadata.analogueGain
        aeState = threeA.exposureState.rawValue
        afState = Self.name(of: threeA.focusState)
        awbState = Self.name(of: threeA.whiteBalanceState)
        locks = Locks(ae: settings.locks.ae, af: settings.locks.af, awb: settings.locks.awb)
        meteringMode = settings.meteringMode.name
        exposurePoint = settings.exposurePoint
        focusPoint = settings.focusPoint
        histogram = stride(from: 0, to: counts.count, by: 4).map { Double(counts[$0..<$0 + 4].reduce(0, +)) / total }
        clippedFraction = statistics.clippedFraction
        sunFraction = frame.statistics.highlights.sunFraction
        advice = BrightnessAdvice.message(statistics, flags: flags, language: .english, subjectExposed: threeA.exposedForSubject)
        adviceZh = BrightnessAdvice.message(statistics, flags: flags, language: .chinese, subjectExposed: threeA.exposedForSubject)
        fps = reading.framesPerSecond
        drops = reading.drops
        self.device = device.uniqueID
        self.camera = camera
        let active = settings.activeFormat
        format = "\(active.size) \(active.pixelFormat) @ \(String(format: "%g", settings.frameRate)) fps, "
            + "preview \(frame.image.width)x\(frame.image.height)"
        let aim = threeA.meteringMode == .sunAware ? SunAwareExposure.aim : 0
        targetBrightness = min(1, SRGB.encode(Meter.midGray * pow(2, threeA.exposureBias + aim)))
        zoom = settings.zoomFactor
        zoomRange = [capabilities.zoomFactor.lowerBound, capabilities.zoomFactor.upperBound]
        // The light flickers at twice the mains frequency.
        flicker = Flicker(mode: settings.flicker, detected: threeA.flicker.map { $0 / 2 })
        whiteBalance = WhiteBalance(mode: settings.whiteBalanceMode, gains: metadata.whiteBalanceGains)
        focus = Focus(mode: settings.focusMode, lensPosition: metadata.lensPosition)
        torch = capabilities.hasTorch ? settings.torchLevel : nil
        watchdog = threeA.watchdogReason
        self.interruption = interruption?.rawValue
        self.formatFallback = formatFallback
        self.recording = recording
        self.live = live
    }

    private enum CodingKeys: String, CodingKey {
        case frame, brightness, linearMean, evBias, evRange, shadows, shadowsRange, exposureTime, sensorExposureTime, renderGainEV, hdr, raw, subjectRegion
        case iso, gain, aeState, afState, awbState, locks
        case meteringMode, exposurePoint, focusPoint, histogram, clippedFraction, sunFraction, advice, adviceZh, fps, drops
        case device, format, camera, targetBrightness, zoom, zoomRange, flicker, whiteBalance, focus, torch, watchdog, interruption
        case formatFallback, recording, live
    }

    /// Every key is present; `exposurePoint`, `subjectRegion`, `torch`, `watchdog`, `interruption`,
    /// `formatFallback`, `recording` and `live` are null when they have no value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(frame, forKey: .frame)
        try container.encode(brightness, forKey: .brightness)
        try container.encode(linearMean, forKey: .linearMean)
        try container.encode(evBias, forKey: .evBias)
        try container.encode(evRange, forKey: .evRange)
        try container.encode(shadows, forKey: .shadows)
        try container.encode(shadowsRange, forKey: .shadowsRange)
        try container.encode(exposureTime, forKey: .exposureTime)
        try container.encode(sensorExposureTime, forKey: .sensorExposureTime)
        try container.encode(renderGainEV, forKey: .renderGainEV)
        try container.encode(hdr, forKey: .hdr)
        try container.encode(raw, forKey: .raw)
        try container.encode(subjectRegion, forKey: .subjectRegion)
        try container.encode(iso, forKey: .iso)
        try container.encode(gain, forKey: .gain)
        try container.encode(aeState, forKey: .aeState)
        try container.encode(afState, forKey: .afState)
        try container.encode(awbState, forKey: .awbState)
        try container.encode(locks, forKey: .locks)
        try container.encode(meteringMode, forKey: .meteringMode)
        try container.encode(exposurePoint, forKey: .exposurePoint)
        try container.encode(focusPoint, forKey: .focusPoint)
        try container.encode(histogram, forKey: .histogram)
        try container.encode(clippedFraction, forKey: .clippedFraction)
        try container.encode(sunFraction, forKey: .sunFraction)
        try container.encode(advice, forKey: .advice)
        try container.encode(adviceZh, forKey: .adviceZh)
        try container.encode(fps, forKey: .fps)
        try container.encode(drops, forKey: .drops)
        try container.encode(device, forKey: .device)
        try container.encode(format, forKey: .format)
        try container.encode(camera, forKey: .camera)
        try container.encode(targetBrightness, forKey: .targetBrightness)
        try container.encode(zoom, forKey: .zoom)
        try container.encode(zoomRange, forKey: .zoomRange)
        try container.encode(flicker, forKey: .flicker)
        try container.encode(whiteBalance, forKey: .whiteBalance)
        try container.encode(focus, forKey: .focus)
        try container.encode(torch, forKey: .torch)
        try container.encode(watchdog, forKey: .watchdog)
        try container.encode(interruption, forKey: .interruption)
        try container.encode(formatFallback, forKey: .formatFallback)
        try container.encode(recording, forKey: .recording)
        try container.encode(live, forKey: .live)
    }

    private static func name(of state: FocusState) -> String {
        switch state {
        case .searching: "searching"
        case .focused: "focused"
        case .failed: "failed"
        case .locked: "locked"
        }
    }

    private static func name(of state: AutoWhiteBalance.State) -> String {
        switch state {
        case .searching: "searching"
        case .converged: "converged"
        case .locked: "locked"
        }
    }
}
