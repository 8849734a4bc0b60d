import CameraCore
internal import CFFmpeg

/// Camera frames, and a microphone's chunks when it records sound, into an H.264 (+ AAC)
/// fragmented MP4 file: the encoders and the file of one recording. Frames must come in
/// presentation order, all of one size; the first one's time is the file's zero for both streams.
/// Audio chunks may come before or after the frames of the same time: each is placed by its own
/// time (`AudioTrack`), and the file's audio ends with its video.
///
/// Or, sharing a live stream's encode, the packets its encoders make, from the first keyframe
/// after the recording starts (`StreamExcerpt`): one encode for the stream and the take.
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

    /// The recording's own encoders; nil when it records a live stream's packets (`excerpt`).
    private let encoders: MovieEncoders?
    private var excerpt: StreamExcerpt?
    private let muxer: FragmentedMP4Muxer
    /// The encoder's FFmpeg name.
    public let encoderName: String
    /// The first frame's time, the file's zero; nil before the first frame.
    public var firstTime: MediaTime? { encoders?.firstTime }
    /// Frames appended so far.
    public var frames: Int { encoders?.frames ?? excerpt?.frames ?? 0 }

    /// Creates `path` for `size` frames at `frameRate` frames a second, encoded by `encoder`, with an
    /// AAC stream when `audio` is given.
    public init(path: String, size: PixelSize, frameRate: Int, encoder: String = H264EncoderChoice.software, audio: AudioFormat? = nil)
        throws(MovieError) {
        let settings = VideoEncoder.Settings(encoder: encoder, size: size, frameRate: frameRate, globalHeader: FragmentedMP4Muxer.wantsGlobalHeaders)
        let encoders = try MovieEncoders(video: settings, audio: audio)
        muxer = try FragmentedMP4Muxer(path: path, video: encoders.video.context, audio: encoders.audio?.encoder.context)
        (self.encoders, encoderName) = (encoders, encoder)
    }

    /// Creates `path` for the packets of a live stream whose encoders (`encoder` by FFmpeg's name)
    /// are described by `parameters`.
    public init(path: String, sharing parameters: LiveStreamParameters, encoder: String) throws(MovieError) {
        muxer = try FragmentedMP4Muxer(path: path, parameters: parameters)
        (encoders, excerpt, encoderName) = (nil, StreamExcerpt(parameters), encoder)
    }

    /// The file's size so far: every completed fragment (the one being built is in memory).
    public var bytesWritten: Int64 { muxer.bytesWritten }

    /// Sample frames of silence put into gaps in the audio (a microphone's overrun), so far.
    public var audioSilenceFrames: Int64 { encoders?.audio?.silenceFrames ?? 0 }
    /// Sample frames of audio left out, so far: before the first frame, overlapping audio already
    /// placed, or (once finished) after the last frame.
    public var audioDroppedFrames: Int64 { encoders?.audio?.droppedFrames ?? 0 }

    /// Encodes `frame` and writes what the encoders have ready. The second frame is a keyframe, so
    /// the first fragment — the first frame alone — reaches the disk as soon as the encoder hands it
    /// over, not a second later: a take is on the disk from its start.
    public func append(_ frame: Frame) throws(MovieError) {
        let encoders = try ownEncoders()
        try encoders.append(frame, keyframe: encoders.frames == 1) { (packet, track) throws(MovieError) in try muxer.write(packet, to: track) }
    }

    /// Places `chunk` on the file's timeline and writes the audio the video has reached; a
    /// recording started without audio refuses it.
    public func append(_ chunk: AudioChunk) throws(MovieError) {
        try ownEncoders().append(chunk) { (packet, track) throws(MovieError) in try muxer.write(packet, to: track) }
    }

    /// Writes a packet of the live stream this recording shares (nothing before its first keyframe).
    public func append(_ packet: EncodedPacket) throws(MovieError) {
        guard var excerpt else { throw MovieError("a stream's packet for a recording that encodes its own frames — append frames to it") }
        let taken = excerpt.take(packet)
        self.excerpt = excerpt
        for packet in taken { try muxer.write(packet) }
    }

    /// Seconds from the recording's zero to `packet`, a packet of the live stream it shares.
    public func elapsed(at packet: EncodedPacket) -> Double { excerpt?.elapsed(at: packet) ?? 0 }

    /// Drains the encoders and closes the file.
    public func finish() throws(MovieError) -> Summary {
        if let encoders {
            try encoders.finish { (packet, track) throws(MovieError) in try muxer.write(packet, to: track) }
        }
        try muxer.finish()
        let audioDuration = encoders.map { $0.audio.map { Double($0.released) / Double($0.sampleRate) } } ?? excerpt?.audioDuration
        let duration = encoders.map { Double($0.videoEnd) / Double(VideoEncoder.timeBase.den) } ?? excerpt?.videoDuration ?? 0
        return Summary(frames: frames, duration: duration, encoder: encoderName, audioDuration: audioDuration)
    }

    /// The recording's own encoders, or why frames and chunks cannot go in.
    private func ownEncoders() throws(MovieError) -> MovieEncoders {
        guard let encoders else { throw MovieError("a frame for a recording that shares a live stream's encode — append the stream's packets") }
        return encoders
    }

    /// Closes the file after a write failed, leaving what reached it: its complete fragments and
    /// perhaps a torn one (`CompleteFragments` cuts that off).
    public func abandon() {
        muxer.abandon()
    }
}
