internal import CFFmpeg
import Glibc

/// FFmpeg's own log, kept off stderr: its encoders print statistics and notes when they open and
/// close, and a probed hardware encoder that is absent prints an error, which would break
/// CameraSun's one-line messages and progress line. What matters reaches the user through
/// `MovieError`, with FFmpeg's own text for the code — and, where the code says too little, with
/// the error lines FFmpeg logged meanwhile (`capturingErrors`): libavformat's RTMP client puts a
/// server's answer refusing a publish ("Server error: Already publishing") only in its log.
enum FFmpegLog {
    /// Set before the first FFmpeg call of each kind that logs (opening a file or a codec): nothing
    /// is printed, and the error lines of a thread that captures them are kept.
    static let quiet: Void = {
        av_log_set_level(AV_LOG_QUIET)
        av_log_set_callback { _, level, format, arguments in
            guard level <= AV_LOG_ERROR, let format, let arguments, let capture = pthread_getspecific(FFmpegLog.captureKey) else { return }
            var line = [CChar](repeating: 0, count: 512)
            _ = vsnprintf(&line, line.count, format, arguments)
            var text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            while text.last?.isNewline == true { text.removeLast() }
            Unmanaged<Capture>.fromOpaque(capture).takeUnretainedValue().lines.append(text)
        }
    }()

    /// Runs `body` and returns, with its result, the error lines FFmpeg logged on this thread
    /// while it ran (FFmpeg logs on the thread that makes the call).
    static func capturingErrors<T>(_ body: () -> T) -> (result: T, errors: [String]) {
        FFmpegLog.quiet
        let capture = Capture()
        let previous = pthread_getspecific(captureKey)
        pthread_setspecific(captureKey, Unmanaged.passUnretained(capture).toOpaque())
        let result = withExtendedLifetime(capture) { body() }
        pthread_setspecific(captureKey, previous)
        return (result, capture.lines)
    }

    /// The lines a thread captures, reached from FFmpeg's log callback through `captureKey`.
    private final class Capture {
        var lines: [String] = []
    }

    /// The thread-specific slot holding the capturing thread's `Capture`, unset on other threads.
    private static let captureKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()
}
