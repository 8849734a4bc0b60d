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

    private let encoder: VideoEncoder
    private let audio: AudioTrack?
    private let muxer: FragmentedMP4Muxer
    private let encoderName: String
    /// The first frame's time, the file's zero; nil before the first frame.
    public private(set) var firstTime: MediaTime?
    private var lastPTS: Int64 = -1
    /// Frames appended so far.
    public private(set) var frames = 0

    /// Creates `path` for `size` frames at `frameRate` frames a second, encoded by `encoder`, with an
    /// AAC stream when `audio` is given.
    public init(path: String, size: PixelSize, frameRate: Int, encoder: String = H264EncoderChoice.software, audio: AudioFormat? = nil)
        throws(MovieError) {
        guard frameRate > 0 else { throw MovieError("frame rate \(frameRate) — a recording needs at least 1 frame a second") }
        let globalHeader = FragmentedMP4Muxer.wantsGlobalHeaders
        self.encoder = try VideoEncoder(VideoEncoder.Settings(encoder: encoder, size: size, frameRate: frameRate, globalHeader: globalHeader))
        self.audio = try audio.map { (format) throws(MovieError) in
            try AudioTrack(sampleRate: format.sampleRate, channelCount: format.channelCount, globalHeader: globalHeader)
        }
        muxer = try FragmentedMP4Muxer(path: path, video: self.encoder.context, audio: self.audio?.encoder.context)
        encoderName = encoder
    }

    /// The file's size so far: every completed fragment (the one being built is in memory).
    public var bytesWritten: Int64 { muxer.bytesWritten }

    /// Sample frames of silence put into gaps in the audio (a microphone's overrun), so far.
    public var audioSilenceFrames: Int64 { audio?.silenceFrames ?? 0 }
    /// Sample frames of audio left out, so far: before the first frame, overlapping audio already
    /// placed, or (once finished) after the last frame.
    public var audioDroppedFrames: Int64 { audio?.droppedFrames ?? 0 }

    /// Encodes `frame` and writes what the encoders have ready.
    public func append(_ frame: Frame) throws(MovieError) {
        let first = firstTime ?? frame.presentationTime
        let elapsed = frame.presentationTime.seconds - first.seconds
        let pts = Int64((elapsed * Double(VideoEncoder.timeBase.den)).rounded())
        guard pts > lastPTS else {
            throw MovieError("frame \(frame.sequenceNumber) at \(frame.presentationTime.seconds) s is not after the frame before — "
                + "frames must come in presentation order")
        }
        if firstTime == nil {
            firstTime = first
            try audio?.start(at: first)
        }
        lastPTS = pts
        try encoder.encode(frame.buffer, pts: pts) { (packet) throws(MovieError) in try muxer.write(packet, to: .video) }
        frames += 1
        try audio?.release(upTo: audioEnd) { (packet) throws(MovieError) in try muxer.write(packet, to: .audio) }
    }

    /// Places `chunk` on the file's timeline and writes the audio the video has reached; a
    /// recording started without audio refuses it.
    public func append(_ chunk: AudioChunk) throws(MovieError) {
        guard let audio else {
            throw MovieError("an audio chunk for a recording started without audio — start it with an audio format, or do not send audio")
        }
        try audio.append(chunk, zero: firstTime)
        guard firstTime != nil else { return }
        try audio.release(upTo: audioEnd) { (packet) throws(MovieError) in try muxer.write(packet, to: .audio) }
    }

    /// Drains the encoders and closes the file.
    public func finish() throws(MovieError) -> Summary {
        try encoder.finish { (packet) throws(MovieError) in try muxer.write(packet, to: .video) }
        try audio?.finish(upTo: audioEnd) { (packet) throws(MovieError) in try muxer.write(packet, to: .audio) }
        try muxer.finish()
        let audioDuration = audio.map { Double($0.released) / Double($0.sampleRate) }
        return Summary(frames: frames, duration: Double(videoEnd) / Double(VideoEncoder.timeBase.den), encoder: encoderName,
                       audioDuration: audioDuration)
    }

    /// The end of the last frame, in the video's ticks from the zero.
    private var videoEnd: Int64 { frames == 0 ? 0 : lastPTS + encoder.frameDuration }

    /// The end of the last frame in audio sample frames.
    private var audioEnd: Int64 {
        guard let audio else { return 0 }
        return videoEnd * Int64(audio.sampleRate) / Int64(VideoEncoder.timeBase.den)
    }
}
