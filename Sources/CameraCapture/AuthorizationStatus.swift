/// Whether this process may use a camera. On Linux it is the device node's permission; the
/// simulated camera is always authorized.
public enum AuthorizationStatus: Sendable, Hashable {
    case authorized
    /// The user is not allowed to open the device; `remedy` says what to do, e.g. "add your user
    /// to the 'video' group (sudo usermod -aG video $USER) and log in again".
    case denied(remedy: String)
    /// A policy outside the user's control forbids it (e.g. a read-only device node).
    case restricted(remedy: String)

    public var isAuthorized: Bool { self == .authorized }
}
