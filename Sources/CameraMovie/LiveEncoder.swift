import CameraCore
internal import CFFmpeg

/// The encoders of a live stream: H.264 at a capped bitrate (libx264 without lookahead) and, with
/// sound, AAC, opened with global headers so that each connection's FLV header carries the
/// sequence headers. Frames and audio are placed on one timeline as a recording's are
/// (`MovieEncoders`); packets come out copied (`EncodedPacket`), ready to queue.
public final class LiveEncoder {
    private let encoders: MovieEncoders
    /// What each new connection describes its streams with.
    public let parameters: LiveStreamParameters
    /// The lowest video bitrate a stream is encoded at, bits a second.
    public static let minimumBitRate = 100_000
    /// The video bitrates a stream may ask for, kilobits a second: from the lowest to a gigabit.
    public static let kilobitRange = (minimumBitRate / 1000)...1_000_000

    /// Opens the encoders for `size` frames at `frameRate` a second, `bitRate` bits a second of
    /// video, with AAC when `audio` is given.
    public init(size: PixelSize, frameRate: Int, bitRate: Int, encoder: String = H264EncoderChoice.software,
                audio: MovieFileWriter.AudioFormat? = nil) throws(MovieError) {
        guard bitRate >= Self.minimumBitRate else {
            throw MovieError("bitrate \(bitRate) b/s — give at least \(Self.minimumBitRate / 1000) kb/s")
        }
        encoders = try MovieEncoders(video: VideoEncoder.Settings(encoder: encoder, size: size, frameRate: frameRate, globalHeader: true,
                                                                  bitRate: bitRate), audio: audio)
        parameters = try LiveStreamParameters(video: encoders.video.context, audio: encoders.audio?.encoder.context)
    }

    /// Frames encoded so far.
    public var frames: Int { encoders.frames }

    /// Encodes `frame` — an IDR when `keyframe` (a new connection starts on one) — with the audio it reaches.
    public func append(_ frame: Frame, keyframe: Bool = false) throws(MovieError) -> [EncodedPacket] {
        var packets: [EncodedPacket] = []
        try encoders.append(frame, keyframe: keyframe) { (packet, track) throws(MovieError) in packets.append(copy(packet, track)) }
        return packets
    }

    /// Places `chunk` and encodes the audio the video has reached.
    public func append(_ chunk: AudioChunk) throws(MovieError) -> [EncodedPacket] {
        var packets: [EncodedPacket] = []
        try encoders.append(chunk) { (packet, track) throws(MovieError) in packets.append(copy(packet, track)) }
        return packets
    }

    /// Drains the encoders.
    public func finish() throws(MovieError) -> [EncodedPacket] {
        var packets: [EncodedPacket] = []
        try encoders.finish { (packet, track) throws(MovieError) in packets.append(copy(packet, track)) }
        return packets
    }

    private func copy(_ packet: UnsafeMutablePointer<AVPacket>, _ track: MovieEncoders.Track) -> EncodedPacket {
        let bytes = packet.pointee.data.map { [UInt8](UnsafeBufferPointer(start: $0, count: Int(packet.pointee.size))) } ?? []
        let timeBase = track == .video ? parameters.videoTimeBase : parameters.audioTimeBase ?? parameters.videoTimeBase
        let dts = packet.pointee.dts == cff_no_pts() ? packet.pointee.pts : packet.pointee.dts
        return EncodedPacket(track: track == .video ? .video : .audio, bytes: bytes, pts: packet.pointee.pts, dts: dts,
                             duration: packet.pointee.duration, isKeyframe: track == .video && packet.pointee.flags & AV_PKT_FLAG_KEY != 0,
                             time: Double(dts) * Double(timeBase.num) / Double(timeBase.den))
    }
}

/// The codec parameters of a live stream's tracks (with their sequence headers), copied from its
/// encoders: each connection's FLV header is written from them. Immutable once made, so the send
/// thread may use it while the encoders run.
public final class LiveStreamParameters: @unchecked Sendable {
    let video: UnsafeMutablePointer<AVCodecParameters>
    let audio: UnsafeMutablePointer<AVCodecParameters>?
    let videoTimeBase: AVRational
    let audioTimeBase: AVRational?

    init(video encoder: UnsafeMutablePointer<AVCodecContext>, audio audioEncoder: UnsafeMutablePointer<AVCodecContext>?) throws(MovieError) {
        guard let video = avcodec_parameters_alloc() else { throw MovieError("cannot describe the stream — the machine is out of memory") }
        self.video = video
        videoTimeBase = encoder.pointee.time_base
        audio = audioEncoder == nil ? nil : avcodec_parameters_alloc()
        audioTimeBase = audioEncoder?.pointee.time_base
        var copied = avcodec_parameters_from_context(video, encoder)
        if copied >= 0, let audioEncoder, let audio { copied = avcodec_parameters_from_context(audio, audioEncoder) }
        guard copied >= 0 else { throw .ffmpeg("describing the stream", copied, advice: "the machine is out of memory") }
    }

    deinit {
        var video: UnsafeMutablePointer<AVCodecParameters>? = video
        avcodec_parameters_free(&video)
        var audio = audio
        avcodec_parameters_free(&audio)
    }
}
