import Glibc

/// A region of a file or device mapped into memory (mmap(2)), unmapped (munmap(2)) when released:
/// how a V4L2 driver's buffers are read without copying.
public final class MappedRegion: @unchecked Sendable {
    // @unchecked: the address and length never change; what is read through `bytes` is the
    // owner's to synchronise, as with any shared memory.

    /// The mapped bytes, valid while this object lives.
    public let bytes: UnsafeMutableRawBufferPointer
    private let path: String

    /// Whether the mapping may be read or also written.
    public enum Protection: Sendable {
        /// The corresponding C constant is `PROT_READ`.
        case read
        /// The corresponding C constant is `PROT_READ | PROT_WRITE`.
        case readWrite
    }

    /// Maps `length` bytes of `file` from `offset`, shared with the file (`MAP_SHARED`) so that
    /// a device's writes are seen.
    public init(_ file: FileDescriptor, length: Int, offset: Int64 = 0, protection: Protection = .read) throws(SystemCallError) {
        let flags = protection == .read ? PROT_READ : PROT_READ | PROT_WRITE
        let address = try systemCall(.mmap, "map", file.path, failed: { $0 == MAP_FAILED }) {
            mmap(nil, length, flags, MAP_SHARED, file.rawValue, off_t(offset))
        }
        bytes = UnsafeMutableRawBufferPointer(start: address, count: length)
        path = file.path
    }

    deinit {
        let region = bytes
        _ = try? systemCall(.munmap, "unmap", path) { munmap(region.baseAddress, region.count) }
    }
}
