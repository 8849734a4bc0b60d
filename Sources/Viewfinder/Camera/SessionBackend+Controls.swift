import CameraCapture
import CameraCore
import CameraExposure
import CameraMetering
import Foundation
import HTTPServer

extension SessionBackend {
    public func setExposure(_ command: ExposureCommand) async throws {
        try device.configure { settings in
            switch command {
            case .bias(let ev): settings.exposureBias = ev
            case .auto: settings.exposureMode = .continuousAuto
            case .locked: settings.exposureMode = .locked
            case .custom(let exposureTime, let gain): settings.exposureMode = .custom(duration: exposureTime, gain: gain)
            case .reset:
                settings.exposureBias = 0
                settings.exposureMode = .continuousAuto
                settings.exposurePoint = nil
            }
        }
    }

    public func setShadows(_ command: ShadowsCommand) async throws {
        try device.configure { $0.shadows = command.shadows }
    }

    /// Meters and focuses at the device point shown at a tap (through `PreviewGeometry` with the
    /// preview's size and its connection's rotation and mirroring) or at a device point; spot
    /// metering moves its spot there too.
    public func meter(_ command: MeterCommand) async throws -> NormalizedPoint {
        let point: NormalizedPoint
        switch command {
        case .devicePoint(let devicePoint):
            point = devicePoint
        case .viewTap(let x, let y, let width, let height, let gravity):
            let geometry = try PreviewGeometry(
                imageSize: previewSize, viewWidth: width, viewHeight: height, gravity: gravity,
                rotation: previewConnection.rotation, mirrored: previewConnection.isVideoMirrored)
            guard let tapped = geometry.devicePoint(fromViewPoint: PreviewGeometry.ViewPoint(x: x, y: y)) else {
                throw HTTPError.badRequest("the tap at (\(x), \(y)) shows no image in a \(width)×\(height) view with \(gravity) gravity"
                    + " — tap on the picture")
            }
            point = tapped
        }
        try device.configure { settings in
            settings.exposurePoint = point
            settings.focusPoint = point
            if case .spot(_, let radius) = settings.meteringMode {
                settings.meteringMode = .spot(point, radius: radius)
            }
        }
        return point
    }

    /// Locks or releases each of AE, AF and AWB named in `command`; releasing returns that loop to
    /// its continuous automatic mode, and releasing what is not locked changes nothing.
    public func setLocks(_ command: LockCommand) async throws {
        try device.configure { settings in
            if let ae = command.ae, ae != (settings.exposureMode == .locked) {
                settings.exposureMode = ae ? .locked : .continuousAuto
            }
            if let af = command.af, af != (settings.focusMode == .locked) {
                settings.focusMode = af ? .locked : .continuous
            }
            if let awb = command.awb, awb != (settings.whiteBalanceMode == .locked) {
                settings.whiteBalanceMode = awb ? .locked : .auto
            }
        }
    }

    /// Zooms at once, or ramps there at a constant rate in stops per second (`ZoomRamp`), stepping
    /// the device's zoom factor every frame interval. A new command stops a ramp in progress.
    public func zoom(_ command: ZoomCommand) async throws {
        switch command {
        case .factor(let factor):
            cancelZoomRamp()
            try device.configure { $0.zoomFactor = factor }
        case .ramp(let target, let rate):
            let clock = ContinuousClock(), start = clock.now
            let ramp = try ZoomRamp(from: device.settings.zoomFactor, to: target, rate: rate,
                                    maximumFactor: device.capabilities.zoomFactor.upperBound)
            let device = device, interval = Duration.seconds(1 / device.settings.frameRate)
            let task = Task {
                while !Task.isCancelled {
                    let elapsed = (clock.now - start).seconds
                    try? device.configure { $0.zoomFactor = ramp.factor(at: elapsed) }
                    if ramp.isFinished(at: elapsed) { return }
                    try? await Task.sleep(for: interval)
                }
            }
            zoomRamp.withLock { running in
                running?.cancel()
                running = task
            }
        }
    }

    /// Spot metering meters around the tap point when there is one, else the centre.
    /// Chooses the metering mode, which replaces a tap to meter: a spot is put where the tap was,
    /// and the tap point is let go, so that it does not come back when sun-aware metering does.
    public func setMetering(_ command: MeteringCommand) async throws {
        try device.configure { settings in
            if case .spot(let point, let radius) = command.mode {
                settings.meteringMode = .spot(settings.exposurePoint ?? point, radius: radius)
            } else {
                settings.meteringMode = command.mode
            }
            settings.exposurePoint = nil
        }
    }

    public func setFlicker(_ command: FlickerCommand) async throws {
        try device.configure { $0.flicker = command.mode }
    }

    /// A temperature, tint or gain outside what white balance takes is a 400 naming the range.
    public func setWhiteBalance(_ command: WhiteBalanceCommand) async throws {
        try device.configure { $0.whiteBalanceMode = command.mode }
    }

    /// A lens position outside the device's `capabilities.lensPosition` is a 400 naming the range.
    public func setFocus(_ command: FocusCommand) async throws {
        try device.configure { $0.focusMode = command.mode }
    }

    /// A camera without a torch answers 409 to turning it on; off is then nothing to do.
    public func setTorch(_ command: TorchCommand) async throws {
        guard device.capabilities.hasTorch || command.level == 0 else {
            throw HTTPError.conflict("\(device.localizedName) has no torch — light the scene another way")
        }
        try device.configure { $0.torchLevel = command.level }
    }

    public func setHDR(_ command: HDRCommand) async throws {
        try device.configure { $0.toneMapping = command.on ? .local : .global }
    }

    public func setRaw(_ command: RawCommand) async throws {
        if command.on, let reason = rawUnavailable {
            throw HTTPError.conflict(reason)
        }
        rawPhotos.withLock { $0 = command.on }
    }

    /// Why the main camera's photos cannot be RAW + JPEG pairs (its format is not raw), or nil.
    var rawUnavailable: String? {
        let format = device.activeFormat.pixelFormat
        if case .bayer16 = format { return nil }
        return "RAW needs the camera's raw frames, and this camera's format \(format.name) is not raw — "
            + "choose a raw (bayer16) format, or take JPEG photos"
    }

    /// The preview image's size (before rotation): the newest frame's, else the device's format
    /// (the same aspect ratio, which is all the geometry needs).
    private var previewSize: PixelSize {
        guard let image = pipeline.monitor.latest?.frame.image else { return device.activeFormat.size }
        return PixelSize(width: image.width, height: image.height)
    }

    func cancelZoomRamp() {
        zoomRamp.withLock { running in
            running?.cancel()
            running = nil
        }
    }
}
