internal import CFFmpeg

/// An MP4 file written as it records, in fragments (`frag_keyframe+empty_moov`, each at most one
/// second): a kill or a power cut loses at most the fragment being written, since everything
/// before it is already a playable file. A video track and, when recorded, an audio track, their
/// packets interleaved by time (`av_interleaved_write_frame`). The index (`moov`) waits for the
/// first fragment (`delay_moov`) so that its edit lists can say where each track starts: the
/// video after its B-frame reordering delay, the audio after the AAC encoder's priming, both at
/// the first frame's time — without them the tracks would be shifted against each other.
final class FragmentedMP4Muxer {
    /// The longest fragment, in microseconds; also the longest the interleaver holds a packet while
    /// it waits for the other track's.
    static let fragmentDuration = 1_000_000

    /// Whether MP4 wants codec configurations in the stream parameters (encoders are then opened
    /// with `AV_CODEC_FLAG_GLOBAL_HEADER`).
    static var wantsGlobalHeaders: Bool {
        guard let format = av_guess_format("mp4", nil, nil) else { return true }
        return format.pointee.flags & AVFMT_GLOBALHEADER != 0
    }

    private let format: UnsafeMutablePointer<AVFormatContext>
    /// Each track's stream and the time base its encoder stamps packets in.
    private var streams: [(stream: UnsafeMutablePointer<AVStream>, encoderTimeBase: AVRational)] = []
    private var finished = false

    /// One track: the time base its packets are stamped in, and how its stream is described.
    private typealias Track = (timeBase: AVRational, describe: (UnsafeMutablePointer<AVCodecParameters>) -> Int32)

    /// Creates `path` for the streams `video` and `audio` make and writes its header.
    convenience init(path: String, video: UnsafeMutablePointer<AVCodecContext>, audio: UnsafeMutablePointer<AVCodecContext>?) throws(MovieError) {
        let encoders: [UnsafeMutablePointer<AVCodecContext>] = [video] + (audio.map { [$0] } ?? [])
        try self.init(path: path, tracks: encoders.map { encoder -> Track in
            (encoder.pointee.time_base, { avcodec_parameters_from_context($0, encoder) })
        })
    }

    /// Creates `path` for the streams a live stream's encoders make (`parameters`), whose packets
    /// it records, and writes its header.
    convenience init(path: String, parameters: LiveStreamParameters) throws(MovieError) {
        var tracks: [Track] = [(parameters.videoTimeBase, { avcodec_parameters_copy($0, parameters.video) })]
        if let audio = parameters.audio, let timeBase = parameters.audioTimeBase {
            tracks.append((timeBase, { avcodec_parameters_copy($0, audio) }))
        }
        try self.init(path: path, tracks: tracks)
    }

    private init(path: String, tracks: [Track]) throws(MovieError) {
        var format: UnsafeMutablePointer<AVFormatContext>?
        FFmpegLog.quiet
        let allocated = avformat_alloc_output_context2(&format, nil, "mp4", path)
        guard allocated >= 0, let format else {
            throw .ffmpeg("preparing the MP4 file \(path)", allocated, advice: "check that FFmpeg's libavformat is installed (make deps)")
        }
        // From here on a throw runs deinit, which closes and frees what was opened.
        self.format = format
        for track in tracks {
            guard let stream = avformat_new_stream(format, nil) else {
                throw MovieError("cannot add a stream to \(path) — the machine is out of memory")
            }
            stream.pointee.time_base = track.timeBase
            let copied = track.describe(stream.pointee.codecpar)
            guard copied >= 0 else { throw .ffmpeg("describing a stream of \(path)", copied, advice: "the machine is out of memory") }
            streams.append((stream, track.timeBase))
        }
        let opened = avio_open(&format.pointee.pb, path, AVIO_FLAG_WRITE)
        guard opened >= 0 else { throw .ffmpeg("creating \(path)", opened, advice: "check that its folder exists and is writable") }
        // Each fragment reaches the file as it is completed, not when libavformat's buffer fills.
        format.pointee.flush_packets = 1
        format.pointee.max_interleave_delta = Int64(Self.fragmentDuration)
        var options: OpaquePointer?
        av_dict_set(&options, "movflags", "frag_keyframe+empty_moov+default_base_moof+delay_moov", 0)
        av_dict_set(&options, "frag_duration", "\(Self.fragmentDuration)", 0)
        let code = avformat_write_header(format, &options)
        av_dict_free(&options)
        guard code >= 0 else { throw .ffmpeg("writing the header of \(path)", code, advice: "check the disk") }
    }

    deinit {
        if !finished { avio_closep(&format.pointee.pb) }
        avformat_free_context(format)
    }

    /// Bytes handed to the file so far (each completed fragment is flushed to it at once).
    var bytesWritten: Int64 { avio_tell(format.pointee.pb) }

    /// Writes one encoded packet of `track` (its timestamps in that track's encoder time base).
    func write(_ packet: UnsafeMutablePointer<AVPacket>, to track: MovieEncoders.Track) throws(MovieError) {
        guard case let (stream, encoderTimeBase)? = track == .video ? streams.first : streams.dropFirst().first else {
            throw MovieError("an audio packet for a recording started without audio — start it with an audio format")
        }
        av_packet_rescale_ts(packet, encoderTimeBase, stream.pointee.time_base)
        packet.pointee.stream_index = stream.pointee.index
        let written = av_interleaved_write_frame(format, packet)
        guard written >= 0 else { throw .ffmpeg("writing the recording", written, advice: "check the free space on the disk") }
    }

    /// Writes one packet of a live stream's encoders (its timestamps in that track's encoder time base).
    func write(_ packet: EncodedPacket) throws(MovieError) {
        try packet.withAVPacket("writing the recording") { (avPacket) throws(MovieError) in
            try write(avPacket, to: packet.track == .video ? .video : .audio)
        }
    }

    /// Closes the file as it is, without the last fragment: after a write failed, what the
    /// muxer still holds cannot reach the file.
    func abandon() {
        guard !finished else { return }
        finished = true
        avio_closep(&format.pointee.pb)
    }

    /// Writes the last fragment and closes the file.
    func finish() throws(MovieError) {
        guard !finished else { return }
        finished = true
        let code = OutputTrailer.write(format)
        guard code >= 0 else { throw .ffmpeg("finishing the recording", code, advice: "check the free space on the disk") }
    }
}
