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

/// The frames a group of pictures decodes to, the decoder drained at its end.
private struct GroupDecoder {
    let decoder: VideoDecoder

    init(_ parameters: UnsafeMutablePointer<AVCodecParameters>, path: String) throws(MovieError) {
        decoder = try VideoDecoder(parameters, path: path)
    }

    func decode(_ group: LastGroup) throws(MovieError) -> Int {
        var decoded = 0
        for packet in group.packets {
            try decoder.send(packet)
            while try decoder.receive() { decoded += 1 }
        }
        try decoder.send(nil)
        while try decoder.receive() { decoded += 1 }
        return decoded
    }
}
