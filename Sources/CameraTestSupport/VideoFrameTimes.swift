import Foundation

/// Each video frame's presentation time in seconds, in decoding order, as ffprobe reads them from
/// the file at `path` (a frame's own time: a frame dropped before it was written shifts no other).
public func videoFrameTimes(of path: String) throws -> [Double] {
    let result = try runTool("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts_time",
                                                  "-of", "csv=p=0", path])
    return String(decoding: result.output, as: UTF8.self).split(whereSeparator: \.isNewline).compactMap {
        Double($0.trimmingCharacters(in: CharacterSet(charactersIn: ", ")))
    }
}
