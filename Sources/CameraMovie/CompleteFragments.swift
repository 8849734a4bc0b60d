import CameraSystem

/// The whole part of a fragmented MP4 file: its header and its fragments (a `moof` and the `mdat`
/// after it) up to the last one written in full. A write cut short — the disk filled up, the
/// power went — leaves a torn box after that, which `trim` cuts off, so that every reader decodes
/// the file to its end without an error.
package enum CompleteFragments {
    /// Cuts the file at `path` to its whole part; returns the bytes kept (0 when not one fragment
    /// is whole) and the bytes cut off.
    static func trim(_ path: String) throws(MovieError) -> (kept: Int64, cut: Int64) {
        do {
            let file = try FileDescriptor.open(path, .readWrite, operation: "open the recording")
            let size = try file.status().byteCount
            let kept = try length(of: file, size: size)
            if kept < size { try file.truncate(to: kept) }
            return (kept, size - kept)
        } catch {
            throw MovieError("cannot cut the torn end off \(path): \(error) — it is kept as it is; run camerasun library repair")
        }
    }

    /// The length of the whole part of the file at `path` as it stands, read from its box headers
    /// alone; 0 when it cannot be read or holds no whole fragment yet (a take still being written).
    package static func wholeLength(ofFileAt path: String) -> Int64 {
        guard let file = try? FileDescriptor.open(path, .readOnly, operation: "open the recording"),
              let size = try? file.status().byteCount else { return 0 }
        return (try? length(of: file, size: size)) ?? 0
    }

    /// The length of the whole part of `file`, `size` bytes long: the end of its last complete `mdat`.
    static func length(of file: FileDescriptor, size: Int64) throws(SystemCallError) -> Int64 {
        var offset: Int64 = 0, whole: Int64 = 0
        let header = UnsafeMutableRawBufferPointer.allocate(byteCount: 16, alignment: 8)
        defer { header.deallocate() }
        while offset + 8 <= size {
            let read = try file.read(into: header, at: offset)
            guard read >= 8 else { break }
            var boxSize = Int64(bigEndian: header[0..<4])
            if boxSize == 1 {
                guard read >= 16 else { break }
                boxSize = Int64(bigEndian: header[8..<16])
            }
            // A size of 0 (to the end of the file) is never written by the muxer, nor one below a header.
            guard boxSize >= 8, offset + boxSize <= size else { break }
            offset += boxSize
            if header[4..<8].elementsEqual("mdat".utf8) { whole = offset }
        }
        return whole
    }
}

private extension Int64 {
    /// The big-endian unsigned number in `bytes`.
    init(bigEndian bytes: Slice<UnsafeMutableRawBufferPointer>) {
        self = bytes.reduce(0) { $0 << 8 | Int64($1) }
    }
}
