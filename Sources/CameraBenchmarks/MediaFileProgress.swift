import CameraMovie
import Foundation

/// How far a media file being written has come, read from its box and tag headers alone (a few
/// bytes at each, not the media): what `bench startup` polls to see a take's or a stream's first
/// frames arrive.
enum MediaFileProgress {
    /// Whether the fragmented MP4 at `path` holds a whole fragment (`CompleteFragments`).
    static func hasWholeFragment(_ path: String) -> Bool {
        CompleteFragments.wholeLength(ofFileAt: path) > 0
    }

    /// Whether the FLV file at `path` holds a whole H.264 picture: a video tag whose AVC packet
    /// is a coded frame (type 1), not the decoder's configuration (type 0).
    static func hasVideoFrame(_ path: String) -> Bool {
        guard let file = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? file.close() }
        let size = (try? file.seekToEnd()) ?? 0
        guard let header = read(file, at: 0, count: 9), header.count == 9, header.starts(with: Data("FLV".utf8)) else { return false }
        // The header, then each tag after the 4-byte size of the one before it.
        var offset = UInt64(bigEndian: header, at: 5, count: 4) + 4
        while let tag = read(file, at: offset, count: 13), tag.count == 13 {
            let dataSize = UInt64(bigEndian: tag, at: 1, count: 3)
            guard offset + 11 + dataSize <= size else { return false }
            if tag[0] & 0x1f == 9, tag[12] == 1 { return true }
            offset += 11 + dataSize + 4
        }
        return false
    }

    /// Up to `count` bytes of `file` from `offset`, nil past its end.
    private static func read(_ file: FileHandle, at offset: UInt64, count: Int) -> Data? {
        guard (try? file.seek(toOffset: offset)) != nil, let data = try? file.read(upToCount: count), !data.isEmpty else { return nil }
        return Data(data)
    }
}

private extension UInt64 {
    /// The big-endian number in `count` bytes of `data` from `start`.
    init(bigEndian data: Data, at start: Int, count: Int) {
        self = data[start..<(start + count)].reduce(0) { $0 << 8 | UInt64($1) }
    }
}
