import Foundation

/// Bytes of a file that a response sends, read as the client takes them (on its connection's
/// thread), so a movie is never held in memory whole.
public final class FileSlice: @unchecked Sendable {
    // `handle` is read only by the one connection thread writing this response, one read at a time.
    private let handle: FileHandle
    /// The part of the file sent.
    public let range: ByteRange

    init(handle: FileHandle, range: ByteRange) {
        self.handle = handle
        self.range = range
    }

    deinit { try? handle.close() }

    /// Copies the body's bytes from `position` (0 is `range.offset`) into `buffer`; returns how
    /// many, 0 at the end, nil when the file cannot be read (it went away or shrank).
    func read(at position: Int64, into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        let wanted = Int(min(Int64(buffer.count), range.length - position))
        guard wanted > 0 else { return 0 }
        do {
            try handle.seek(toOffset: UInt64(range.offset + position))
            guard let data = try handle.read(upToCount: wanted), !data.isEmpty else { return nil }
            return data.copyBytes(to: buffer)
        } catch {
            return nil
        }
    }
}
