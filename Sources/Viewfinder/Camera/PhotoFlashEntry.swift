import CameraCapture
import CameraStills

/// What the flash did for a photo as `POST /api/photo` answers it (`flash` beside the library
/// entry): the mode asked for, whether it fired, and when it did, its power (0…1), whether the
/// subject was out of its reach (even full power left it more than `FlashExposure.reachTolerance`
/// under its target; the page says so) and the subject's expected level against that target in
/// EV — the figures `camerasun photo --json` prints as `flash…`.
struct PhotoFlashEntry: Encodable, Sendable {
    let mode: String
    let fired: Bool
    let power: Double?
    let outOfReach: Bool?
    let subjectEV: Double?

    init(_ flash: PhotoFlash) {
        mode = flash.mode.rawValue
        fired = flash.fired
        power = flash.power
        outOfReach = flash.exposure?.isOutOfReach
        subjectEV = flash.exposure?.expectedError
    }
}
