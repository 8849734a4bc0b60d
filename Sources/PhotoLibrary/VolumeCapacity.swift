import CameraSystem

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
        do {
            let volume = try FileSystem.volumeStatus(directory)
            let isWritable = try FileSystem.isWritable(directory)
            return VolumeCapacity(availableBytes: volume.availableBytes, totalBytes: volume.totalBytes,
                                  isWritable: isWritable && !volume.isReadOnly)
        } catch {
            throw PhotoLibraryError(error)
        }
    }
}
