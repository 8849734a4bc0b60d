internal import CFFmpeg

/// FFmpeg's own log on stderr, turned off: its encoders print statistics and notes when they
/// open and close, and a probed hardware encoder that is absent prints an error, which would
/// break CameraSun's one-line messages and progress line. What matters reaches the user through
/// `MovieError`, with FFmpeg's own text for the code.
enum FFmpegLog {
    /// Set before the first FFmpeg call of each kind that logs (opening a file or a codec).
    static let quiet: Void = av_log_set_level(AV_LOG_QUIET)
}
