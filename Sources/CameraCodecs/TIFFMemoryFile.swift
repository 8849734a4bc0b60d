internal import CTIFF

/// A growable byte buffer that libtiff reads, writes and seeks as if it were a file, so that a DNG
/// is built in memory and reaches the disk in one atomic write (as a JPEG does).
///
/// libtiff calls the procedures below with `Unmanaged` pointers to this object as their client
/// data; the object must outlive the `TIFF` handle. Writing past the end zero-fills the gap, as a
/// sparse file would read back.
final class TIFFMemoryFile {
    private(set) var bytes: [UInt8] = []
    private var position = 0

    /// A buffer with room for `expectedSize` bytes before it first grows.
    init(expectedSize: Int) {
        bytes.reserveCapacity(expectedSize)
    }

    /// Opens this buffer for writing as a little-endian classic TIFF, reporting libtiff's errors and
    /// warnings to `messages` instead of standard error.
    func openForWriting(messages: TIFFMessages) -> OpaquePointer? {
        guard let options = TIFFOpenOptionsAlloc() else { return nil }
        defer { TIFFOpenOptionsFree(options) }
        let log = Unmanaged.passUnretained(messages).toOpaque()
        TIFFOpenOptionsSetErrorHandlerExtR(options, { _, log, module, format, arguments in
            TIFFMessages.record(.error, log: log, module: module, format: format, arguments: arguments)
        }, log)
        TIFFOpenOptionsSetWarningHandlerExtR(options, { _, log, module, format, arguments in
            TIFFMessages.record(.warning, log: log, module: module, format: format, arguments: arguments)
        }, log)
        return TIFFClientOpenExt("memory", "wl", Unmanaged.passUnretained(self).toOpaque(),
                                 { client, data, size in Int64(file(client).read(into: data, Int(size))) },
                                 { client, data, size in Int64(file(client).write(from: data, Int(size))) },
                                 { client, offset, whence in file(client).seek(to: offset, whence: whence) },
                                 { _ in 0 },
                                 { client in UInt64(file(client).bytes.count) },
                                 nil, nil, options)
    }

    private func read(into destination: UnsafeMutableRawPointer?, _ size: Int) -> Int {
        let count = max(0, min(size, bytes.count - position))
        guard let destination, count > 0 else { return 0 }
        bytes.withUnsafeBytes { source in destination.copyMemory(from: source.baseAddress! + position, byteCount: count) }
        position += count
        return count
    }

    private func write(from source: UnsafeMutableRawPointer?, _ size: Int) -> Int {
        guard let source, size > 0 else { return 0 }
        let end = position + size
        if end > bytes.count { bytes.append(contentsOf: repeatElement(0, count: end - bytes.count)) }
        bytes.withUnsafeMutableBytes { destination in
            (destination.baseAddress! + position).copyMemory(from: source, byteCount: size)
        }
        position = end
        return size
    }

    /// Moves to `offset` from the start, the current position or the end (SEEK_SET, SEEK_CUR,
    /// SEEK_END); a position before the start fails with UInt64.max, as lseek's -1.
    private func seek(to offset: UInt64, whence: Int32) -> UInt64 {
        let origin = switch whence {
        case SEEK_CUR: position
        case SEEK_END: bytes.count
        default: 0
        }
        let target = origin + Int(truncatingIfNeeded: offset)
        guard target >= 0 else { return .max }
        position = target
        return UInt64(target)
    }
}

/// The memory file behind libtiff's client data.
private func file(_ client: UnsafeMutableRawPointer?) -> TIFFMemoryFile {
    Unmanaged<TIFFMemoryFile>.fromOpaque(client!).takeUnretainedValue()
}
