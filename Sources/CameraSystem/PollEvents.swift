import Glibc

/// The events `FileDescriptor.poll` waits for and reports.
public struct PollEvents: OptionSet, Sendable, Hashable {
    public let rawValue: Int16
    public init(rawValue: Int16) { self.rawValue = rawValue }

    /// Data can be read (a V4L2 buffer is ready). The corresponding C constant is `POLLIN`.
    public static let readable = PollEvents(rawValue: Int16(POLLIN))
    /// Data can be written. The corresponding C constant is `POLLOUT`.
    public static let writable = PollEvents(rawValue: Int16(POLLOUT))
    /// A priority event (a V4L2 event). The corresponding C constant is `POLLPRI`.
    public static let priority = PollEvents(rawValue: Int16(POLLPRI))
    /// An error on the descriptor (reported, never requested). The corresponding C constant is `POLLERR`.
    public static let error = PollEvents(rawValue: Int16(POLLERR))
    /// The peer hung up (reported, never requested). The corresponding C constant is `POLLHUP`.
    public static let hangUp = PollEvents(rawValue: Int16(POLLHUP))
}
