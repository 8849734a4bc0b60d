import Glibc

/// What statvfs(3) says about a volume.
public struct VolumeStatus: Sendable, Hashable {
    /// Bytes an unprivileged process may still write.
    public let availableBytes: Int64
    /// The size of the volume.
    public let totalBytes: Int64
    /// Whether it is mounted read-only (`ST_RDONLY`).
    public let isReadOnly: Bool

    init(_ status: statvfs) {
        let blockSize = Int64(status.f_frsize)
        availableBytes = Int64(status.f_bavail) * blockSize
        totalBytes = Int64(status.f_blocks) * blockSize
        isReadOnly = status.f_flag & UInt(ST_RDONLY) != 0
    }
}
