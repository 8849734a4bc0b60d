#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How much a library's volume can take: what `PhotoLibrary.checkCapacity(forBytes:)` compares a
/// new file's size against before anything is written.
public struct VolumeCapacity: Sendable, Hashable {
    /// Bytes an unprivileged process may still write.
    public var availableBytes: Int64
    /// The size of the volume.
    public var totalBytes: Int64
    /// Whether the library directory can be written (false on a read-only mount or without permission).
    public var isWritable: Bool

    public init(availableBytes: Int64, totalBytes: Int64, isWritable: Bool) {
        self.availableBytes = availableBytes
        self.totalBytes = totalBytes
        self.isWritable = isWritable
    }

    /// Space kept free beyond every file: 1% of the volume, at most 64 MiB, so the catalogue, its
    /// write-ahead log and the rest of the system are not starved by a burst of photos.
    public var reserveBytes: Int64 { min(64 << 20, totalBytes / 100) }
}

/// Reports the capacity of the volume a directory is on. The library asks it before every write;
/// tests inject one that reports a full or read-only disk where mounting one is not allowed.
public protocol VolumeCapacityProvider: Sendable {
    /// The capacity of the volume holding `directory`; throws a `PhotoLibraryError` naming the
    /// directory when it cannot be examined.
    func capacity(ofVolumeAt directory: String) throws(PhotoLibraryError) -> VolumeCapacity
}

/// The real volume, from statvfs(3) and access(2).
public struct SystemVolumeCapacity: VolumeCapacityProvider {
    public init() {}

    public func capacity(ofVolumeAt directory: String) throws(PhotoLibraryError) -> VolumeCapacity {
        var status = statvfs()
        do {
            try systemCall("measure the free space of", directory) { statvfs(directory, &status) }
        } catch {
            throw PhotoLibraryError(error, advice: "check that the library directory exists")
        }
        let blockSize = Int64(status.f_frsize)
        let isWritable = status.f_flag & UInt(ST_RDONLY) == 0 && access(directory, W_OK) == 0
        return VolumeCapacity(availableBytes: Int64(status.f_bavail) * blockSize,
                              totalBytes: Int64(status.f_blocks) * blockSize, isWritable: isWritable)
    }
}
