import CameraCapture
import CameraSystem

extension CaptureError {
    /// What to do when the device node may not be opened.
    static let videoGroupRemedy = "add your user to the video group: sudo usermod -aG video $USER, then log in again"

    /// What asking `device` for a frame without a started stream is.
    static func streamNotStarted(_ device: String) -> CaptureError {
        .deviceFailure(device: device, detail: "the stream is not started — call startStreaming() before nextFrame()")
    }

    /// The capture error a failed V4L2 call means to the session, with what the user can do:
    /// EACCES is a denied authorization, EBUSY another program holding the camera, ENODEV a
    /// camera unplugged while open and ENOENT a node not there (yet) — both a removed device, so
    /// the session waits for it; anything else is a device failure naming the request.
    static func v4l2(_ error: SystemCallError) -> CaptureError {
        let device = error.path ?? "the camera"
        switch error.errno {
        case .permissionDenied, .notPermitted:
            return .notAuthorized(device: device, remedy: videoGroupRemedy)
        case .busy:
            return .interrupted(.deviceInUseByAnotherClient, detail: "another program is using \(device) — close it, then start the camera again")
        case .noDevice:
            return .interrupted(.deviceRemoved, detail: "\(device) was disconnected — plug the camera back in, then start it again")
        case .noSuchFileOrDirectory:
            return .interrupted(.deviceRemoved, detail: "there is no \(device) — plug the camera in or check the path, then start it again")
        default:
            return .deviceFailure(device: device, detail: error.description)
        }
    }
}

/// Runs one driver request, turning its `SystemCallError` into the `CaptureError` it means.
func kernel<Result>(_ request: () throws(SystemCallError) -> Result) throws(CaptureError) -> Result {
    do {
        return try request()
    } catch {
        throw .v4l2(error)
    }
}

/// Runs one control request, returning nil when the driver refuses it — EINVAL, ERANGE, EACCES,
/// EPERM or EIO, as drivers answer for a control that is inactive, read-only or out of range —
/// so a control the camera will not take is one CameraSun does without, not a failed stream.
func unlessRefused<Result>(_ request: () throws(SystemCallError) -> Result) throws(CaptureError) -> Result? {
    do {
        return try request()
    } catch where [.invalidArgument, .outOfRange, .permissionDenied, .notPermitted, .ioError].contains(error.errno) {
        return nil
    } catch {
        throw .v4l2(error)
    }
}

/// Runs one query, returning nil when the driver answers EINVAL: it has no such entry, control
/// or menu item.
func unlessAbsent<Answer>(_ query: () throws(SystemCallError) -> Answer) throws(CaptureError) -> Answer? {
    do {
        return try query()
    } catch where error.errno == .invalidArgument {
        return nil
    } catch {
        throw .v4l2(error)
    }
}

/// Runs one enumeration request for index 0, 1, … until the driver answers EINVAL (past the
/// last entry, as the V4L2 enumeration ioctls end), and returns the answers.
func enumerate<Entry>(_ request: (Int) throws(SystemCallError) -> Entry) throws(CaptureError) -> [Entry] {
    var entries: [Entry] = []
    while let entry = try unlessAbsent({ () throws(SystemCallError) in try request(entries.count) }) {
        entries.append(entry)
    }
    return entries
}
