import CameraCodecs

/// What the flash did for one photo: the mode asked for, whether the camera has a flash, and —
/// when it fired — the flash exposure the pre-flash measured, with the power it fired at.
public struct PhotoFlash: Sendable, Hashable {
    public let mode: PhotoSettings.FlashMode
    /// False for a camera without a flash (a V4L2 webcam): `auto` then never fires.
    public let isAvailable: Bool
    /// The flash exposure of the photo's frame, or nil when the flash did not fire.
    public let exposure: FlashExposure?

    public var fired: Bool { exposure != nil }
    /// The power (0…1 of full) the flash fired at, or nil when it did not fire. The photo's
    /// `metadata.flashPower` is the same figure as the camera reported it.
    public var power: Double? { exposure?.power }

    /// The EXIF Flash field: no flash function, or the mode and whether it fired.
    var exif: ExifMetadata.Flash {
        guard isAvailable else { return .unavailable }
        return switch mode {
        case .off: .off
        case .on: .on(fired: fired)
        case .auto: .auto(fired: fired)
        }
    }
}
