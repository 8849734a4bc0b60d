import CameraCore
internal import CFFmpeg

/// Camera frames, and a microphone's chunks when it records sound, into an H.264 (+ AAC)
/// fragmented MP4 file: the encoders and the file of one recording. Frames must come in
/// presentation order, all of one size; the first one's time is the file's zero for both streams.
/// Audio chunks may come before or after the frames of the same time: each is placed by its own
/// time (`AudioTrack`), and the file's audio ends with its video.
public final class MovieFileWriter {
    /// What was written.
    public struct Summary: Equatable, Sendable {
        public let frames: Int
        /// From the first frame's time to the end of the last frame.
        public let duration: Double
        public let encoder: String
        /// Seconds of audio written; nil for a recording without audio.
        public let audioDuration: Double?

        public init(frames: Int, duration: Double, encoder: String, audioDuration: Double? = nil) {
            self.frames = frames
            self.duration = duration
            self.encoder = encoder
            self.audioDuration = audioDuration
        }
    }

    /// The sound a recording takes: the microphone's rate and channels (AAC at 128 kb/s).
    public struct AudioFormat: Equatable, Sendable {
        public let sampleRate: Int
        public let channelCount: Int

        public init(sampleRate: Int = 48_000, channelCount: Int = 1) {
            self.sampleRate = sampleRate
            self.channelCount = channelCount
        }
    }

    private let encoders: MovieEncoders
    private let muxer: FragmentedMP4Muxer
    /// The encoder's FFmpeg name.
    public let encoderName: String
    /// The first frame's time, the file's zero; nil before the first frame.
    public var firstTime: MediaTime? { encoders.firstTime }
    /// Frames appended so far.
    public var frames: Int { encoders.frames }

    /// Creates `path` for `size` frames at `frameRate` frames a second, encoded by `encoder`, with an
    /// AAC stream when `audio` is given.
    public init(path: String, size: PixelSize, frameRate: Int, encoder: String = H264EncoderChoice.software, audio: AudioFormat? = nil)
        throws(MovieError) {
        let settings = VideoEncoder.Settings(encoder: encoder, size: size, frameRate: frameRate, globalHeader: FragmentedMP4Muxer.wantsGlobalHeaders)
        encoders = try MovieEncoders(video: settings, audio: audio)
        muxer = try FragmentedMP4Muxer(path: path, video: encoders.video.context, audio: encoders.audio?.encoder.context)
        encoderName = encoder
    }

    /// The file's size so far: every completed fragment (the one being built is in memory).
    public var bytesWritten: Int64 { muxer.bytesWritten }

    /// Sample frames of silence put into gaps in the audio (a microphone's overrun), so far.
    public var audioSilenceFrames: Int64 { encoders.audio?.silenceFrames ?? 0 }
    /// Sample frames of audio left out, so far: before the first frame, overlapping audio already
    /// placed, or (once finished) after the last frame.
    public var audioDroppedFrames: Int64 { encoders.audio?.droppedFrames ?? 0 }

    /// Encodes `frame` and writes what the encoders have ready.
    public func append(_ frame: Frame) throws(MovieError) {
        try encoders.append(frame) { (packet, track) throws(MovieError) in try muxer.write(packet, to: track) }
    }

    /// Places `chunk` on the file's timeline and writes the audio the video has reached; a
    /// recording started without audio refuses it.
    public func append(_ chunk: AudioChunk) throws(MovieError) {
        try encoders.append(chunk) { (packet, track) throws(MovieError) in try muxer.write(packet, to: track) }
    }

    /// Drains the encoders and closes the file.
    public func finish() throws(MovieError) -> Summary {
        try encoders.finish { (packet, track) throws(MovieError) in try muxer.write(packet, to: track) }
        try muxer.finish()
        let audioDuration = encoders.audio.map { Double($0.released) / Double($0.sampleRate) }
        return Summary(frames: frames, duration: Double(encoders.videoEnd) / Double(VideoEncoder.timeBase.den), encoder: encoderName,
                       audioDuration: audioDuration)
    }

    /// Closes the file after a write failed, leaving what reached it: its complete fragments and
    /// perhaps a torn one (`CompleteFragments` cuts that off).
    public func abandon() {
        muxer.abandon()
    }
}
