import Glibc

/// A C `errno` value with Swift names for the ones CameraSun reacts to. A struct, not an enum, so
/// any value the kernel returns is representable.
public struct Errno: RawRepresentable, Error, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The C library's text for this value (strerror), e.g. "No space left on device".
    public var description: String { String(cString: strerror(rawValue)) }

    /// The current thread's `errno`.
    static var current: Errno { Errno(rawValue: errno) }

    /// A signal interrupted the call. The corresponding C constant is `EINTR`.
    public static let interrupted = Errno(rawValue: EINTR)
    /// No such file or directory. The corresponding C constant is `ENOENT`.
    public static let noSuchFileOrDirectory = Errno(rawValue: ENOENT)
    /// A path component is not a directory. The corresponding C constant is `ENOTDIR`.
    public static let notDirectory = Errno(rawValue: ENOTDIR)
    /// The file exists. The corresponding C constant is `EEXIST`.
    public static let fileExists = Errno(rawValue: EEXIST)
    /// Permission denied. The corresponding C constant is `EACCES`.
    public static let permissionDenied = Errno(rawValue: EACCES)
    /// Operation not permitted. The corresponding C constant is `EPERM`.
    public static let notPermitted = Errno(rawValue: EPERM)
    /// Read-only file system. The corresponding C constant is `EROFS`.
    public static let readOnlyFileSystem = Errno(rawValue: EROFS)
    /// No space left on device. The corresponding C constant is `ENOSPC`.
    public static let noSpace = Errno(rawValue: ENOSPC)
    /// Disk quota exceeded. The corresponding C constant is `EDQUOT`.
    public static let quotaExceeded = Errno(rawValue: EDQUOT)
    /// The call would block (a lock held elsewhere, no data yet). The corresponding C constant is `EWOULDBLOCK`.
    public static let wouldBlock = Errno(rawValue: EWOULDBLOCK)
    /// Input/output error. The corresponding C constant is `EIO`.
    public static let ioError = Errno(rawValue: EIO)
    /// The device does not support this request (an ioctl). The corresponding C constant is `ENOTTY`.
    public static let inappropriateControl = Errno(rawValue: ENOTTY)
    /// An invalid argument. The corresponding C constant is `EINVAL`.
    public static let invalidArgument = Errno(rawValue: EINVAL)
    /// The device is gone (a camera unplugged while open). The corresponding C constant is `ENODEV`.
    public static let noDevice = Errno(rawValue: ENODEV)
    /// A value outside what the call accepts (a V4L2 control value). The corresponding C constant is `ERANGE`.
    public static let outOfRange = Errno(rawValue: ERANGE)
    /// The device or resource is busy. The corresponding C constant is `EBUSY`.
    public static let busy = Errno(rawValue: EBUSY)
}
