import CameraCore
internal import CFFmpeg

/// What a recording holds, read back with libavformat before it counts as saved: its video
/// stream's frames and duration, its audio stream's duration (which must be within one video
/// frame of the video's), and whether its last group of pictures (keyframe to end) decodes,
/// which is the part a crash or a full disk would have damaged. Only that group is decoded, so
/// checking an hour-long take costs a second of decoding, not an hour.
public struct MovieValidation: Equatable, Sendable {
    /// Video frames in the file (packets of its video stream).
    public let frames: Int
    /// From the first frame's time to the end of the last one, in seconds.
    public let duration: Double
    public let hasAudio: Bool
    /// From the first frame's time to the end of the last audio packet, in seconds (the audio before
    /// that frame is the AAC encoder's priming); nil without audio.
    public let audioDuration: Double?
    /// Frames decoded from the last keyframe to the end: all of that group, when it is sound.
    public let lastGroupFrames: Int
    /// The video's frame size and its streams' codecs, by FFmpeg's names (h264, aac).
    public var size = PixelSize(width: 0, height: 0)
    public var videoCodec = ""
    public var audioCodec: String?

    public init(frames: Int, duration: Double, hasAudio: Bool, audioDuration: Double?, lastGroupFrames: Int) {
        (self.frames, self.duration, self.hasAudio, self.audioDuration, self.lastGroupFrames) =
            (frames, duration, hasAudio, audioDuration, lastGroupFrames)
    }

    /// Reads `path` through; throws when it is not a movie, has no video, its audio's duration is
    /// more than one video frame from the video's, or its last group does not decode.
    public static func check(_ path: String) throws(MovieError) -> MovieValidation {
        var format: UnsafeMutablePointer<AVFormatContext>?
        FFmpegLog.quiet
        let opened = avformat_open_input(&format, path, nil, nil)
        guard opened >= 0, let input = format else {
            throw .ffmpeg("opening the recording \(path)", opened, advice: "it is not a movie file CameraSun can read")
        }
        defer { avformat_close_input(&format) }
        let info = avformat_find_stream_info(input, nil)
        guard info >= 0 else { throw .ffmpeg("reading the streams of \(path)", info, advice: "the file is damaged") }
        let streams = (0..<Int(input.pointee.nb_streams)).compactMap { input.pointee.streams[$0] }
        guard let video = streams.first(where: { $0.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO }) else {
            throw MovieError("\(path) has no video stream — it is not a CameraSun recording")
        }
        let audio = streams.first { $0.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO }
        var audioSpan = audio.map { PacketSpan($0.pointee.time_base) }
        let lastGroup = LastGroup()
        guard let packet = av_packet_alloc() else { throw MovieError("cannot allocate a packet — the machine is out of memory") }
        var owned: UnsafeMutablePointer<AVPacket>? = packet
        defer { av_packet_free(&owned) }
        // Fragmented MP4 packets come back without durations: a frame lasts one period of the stream's rate.
        let timeBase = video.pointee.time_base, rate = video.pointee.avg_frame_rate
        let period = rate.num > 0 ? Int64(timeBase.den) * Int64(rate.den) / (Int64(timeBase.num) * Int64(rate.num)) : 0
        var frames = 0
        var videoSpan = PacketSpan(timeBase)
        while av_read_frame(input, packet) >= 0 {
            defer { av_packet_unref(packet) }
            if packet.pointee.stream_index == audio?.pointee.index { audioSpan?.add(packet, defaultDuration: 0) }
            guard packet.pointee.stream_index == video.pointee.index else { continue }
            frames += 1
            videoSpan.add(packet, defaultDuration: period)
            try lastGroup.add(packet, keyframe: packet.pointee.flags & AV_PKT_FLAG_KEY != 0)
        }
        let seconds = videoSpan.seconds()
        // Audio before the first frame is the AAC encoder's priming, which the file's edit list hides.
        let audioSeconds = audioSpan?.seconds(from: videoSpan.start)
        if let audioSeconds, frames > 0, abs(audioSeconds - seconds) > Double(period) * av_q2d(timeBase) + 1e-6 {
            throw MovieError("\(path) has \(audioSeconds) s of audio beside \(seconds) s of video, more than a frame apart — "
                + "the recording's sound is out of step; record it again")
        }
        let decoded = try GroupDecoder(video.pointee.codecpar, path: path).decode(lastGroup)
        var validation = MovieValidation(frames: frames, duration: seconds, hasAudio: audio != nil, audioDuration: audioSeconds,
                                         lastGroupFrames: decoded)
        let parameters = video.pointee.codecpar.pointee
        validation.size = PixelSize(width: Int(parameters.width), height: Int(parameters.height))
        validation.videoCodec = String(cString: avcodec_get_name(parameters.codec_id))
        validation.audioCodec = audio.map { String(cString: avcodec_get_name($0.pointee.codecpar.pointee.codec_id)) }
        return validation
    }
}

/// The time a stream's packets cover, in seconds: from the earliest one's start to the latest one's end.
private struct PacketSpan {
    private let timeBase: AVRational
    private var first: Int64?
    private var end: Int64 = 0

    init(_ timeBase: AVRational) {
        self.timeBase = timeBase
    }

    /// Takes in `packet`, which lasts `defaultDuration` when it does not say.
    mutating func add(_ packet: UnsafeMutablePointer<AVPacket>, defaultDuration: Int64) {
        let pts = packet.pointee.pts
        first = min(first ?? pts, pts)
        end = max(end, pts + (packet.pointee.duration > 0 ? packet.pointee.duration : defaultDuration))
    }

    var start: Double { Double(first ?? end) * av_q2d(timeBase) }

    /// From `from` (or the first packet, if later) to the end.
    func seconds(from: Double = -.infinity) -> Double {
        max(0, Double(end) * av_q2d(timeBase) - max(start, from))
    }
}

/// The packets from the last keyframe read so far to the end, kept by reference (one second of
/// compressed video): all that `GroupDecoder` decodes.
private final class LastGroup {
    private(set) var packets: [UnsafeMutablePointer<AVPacket>] = []

    deinit { clear() }

    /// Keeps `packet`; a keyframe starts a new group.
    func add(_ packet: UnsafeMutablePointer<AVPacket>, keyframe: Bool) throws(MovieError) {
        if keyframe { clear() }
        guard let kept = av_packet_clone(packet) else { throw MovieError("cannot keep a packet — the machine is out of memory") }
        packets.append(kept)
    }

    private func clear() {
        for packet in packets {
            var owned: UnsafeMutablePointer<AVPacket>? = packet
            av_packet_free(&owned)
        }
        packets.removeAll(keepingCapacity: true)
    }
}

/// A decoder for the video of a recording, counting the frames a group of pictures decodes to.
private final class GroupDecoder {
    private let context: UnsafeMutablePointer<AVCodecContext>
    private let frame: UnsafeMutablePointer<AVFrame>
    private let path: String
    private var decoded = 0

    init(_ parameters: UnsafeMutablePointer<AVCodecParameters>, path: String) throws(MovieError) {
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw MovieError("no decoder for the video of \(path) — run make deps (installs FFmpeg's decoders)")
        }
        guard let context = avcodec_alloc_context3(codec), let frame = av_frame_alloc() else {
            throw MovieError("cannot allocate a decoder — the machine is out of memory")
        }
        (self.context, self.frame, self.path) = (context, frame, path)
        var code = avcodec_parameters_to_context(context, parameters)
        if code >= 0 { code = avcodec_open2(context, codec, nil) }
        guard code >= 0 else { throw .ffmpeg("opening the decoder for \(path)", code, advice: "the file is damaged") }
    }

    deinit {
        var context: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&context)
        var frame: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&frame)
    }

    /// The frames `group` decodes to, the decoder drained at its end.
    func decode(_ group: LastGroup) throws(MovieError) -> Int {
        for packet in group.packets {
            let sent = avcodec_send_packet(context, packet)
            guard sent >= 0 else { throw .ffmpeg("decoding the video of \(path)", sent, advice: "the file is damaged") }
            try receive()
        }
        let sent = avcodec_send_packet(context, nil)
        guard sent >= 0 || sent == cff_error_eof() else { throw .ffmpeg("decoding the video of \(path)", sent, advice: "the file is damaged") }
        try receive()
        return decoded
    }

    private func receive() throws(MovieError) {
        while true {
            let received = avcodec_receive_frame(context, frame)
            if received == cff_error_again() || received == cff_error_eof() { return }
            guard received >= 0 else { throw .ffmpeg("decoding the video of \(path)", received, advice: "the file is damaged") }
            decoded += 1
            av_frame_unref(frame)
        }
    }
}
