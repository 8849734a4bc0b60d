/// Why a photo request failed, with what to do.
public enum PhotoCaptureError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The settings' id was already used with this output.
    case reusedSettings(uniqueID: UInt64)
    /// The output is not in a running session, so no frame will come.
    case notRunning
    /// The settings ask for something this camera or format cannot do.
    case unsupported(String)
    /// Encoding the frame failed.
    case processingFailed(String)
    /// The flash photo could not be taken: what did not happen, and why when it is known.
    case flashFailed(String)
    /// The bracketed photo could not be taken: what did not happen.
    case bracketFailed(String)

    public var description: String {
        switch self {
        case .reusedSettings(let id):
            "photo settings \(id) were already used — make new PhotoSettings for every request"
        case .notRunning:
            "the photo output has no frames — add it to a session and start the session first"
        case .unsupported(let what): "\(what)"
        case .processingFailed(let what): "photo processing failed: \(what)"
        case .flashFailed(let what): "the flash photo was not taken: \(what)"
        case .bracketFailed(let what): "the bracketed photo was not taken: \(what)"
        }
    }
}
