internal import CFFmpeg
import Glibc

/// Why a recording could not be made or written: what failed, then " — " and what to do.
public struct MovieError: Error, Equatable, CustomStringConvertible {
    public let message: String
    /// The file could not be written because its volume is full (ENOSPC, or EDQUOT over a quota).
    public let isDiskFull: Bool

    public init(_ message: String, isDiskFull: Bool = false) {
        self.message = message
        self.isDiskFull = isDiskFull
    }

    public var description: String { message }

    /// An FFmpeg call's failure: the operation, FFmpeg's own text for `code`, and `advice`.
    static func ffmpeg(_ operation: String, _ code: Int32, advice: String) -> MovieError {
        MovieError("\(operation) failed: \(FFmpegText.error(code)) — \(advice)", isDiskFull: code == -ENOSPC || code == -EDQUOT)
    }
}

/// FFmpeg's texts for its error codes.
enum FFmpegText {
    static func error(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        return buffer.withUnsafeMutableBufferPointer { buffer in
            String(cString: cff_error_text(code, buffer.baseAddress, buffer.count))
        }
    }
}
