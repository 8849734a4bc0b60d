import Foundation

/// Each video frame's presentation time in seconds, in decoding order, as ffprobe reads them from
/// the file at `path` (a frame's own time: a frame dropped before it was written shifts no other).
public func videoFrameTimes(of path: String) async throws -> [Double] {
    let result = try await runTool("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts_time",
                                                  "-of", "csv=p=0", path])
    return String(decoding: result.output, as: UTF8.self).split(whereSeparator: \.isNewline).compactMap {
        Double($0.trimmingCharacters(in: CharacterSet(charactersIn: ", ")))
    }
}

/// The MD5 of each video packet of the file at `path`, in order, as ffprobe reads them: two files
/// holding the same encode (a stream and the take that shared its encoder) share a run of them.
public func videoPacketHashes(of path: String) async throws -> [String] {
    let result = try await runTool("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_data_hash", "MD5",
                                                  "-show_entries", "packet=data_hash", "-of", "csv=p=0", path])
    return String(decoding: result.output, as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init)
}
