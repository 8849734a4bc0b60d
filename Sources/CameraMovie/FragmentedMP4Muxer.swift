internal import CFFmpeg

/// An MP4 file written as it records, in fragments (`frag_keyframe+empty_moov`, each at most one
/// second): a kill or a power cut loses at most the fragment being written, since everything
/// before it is already a playable file.
final class FragmentedMP4Muxer {
    /// The longest fragment, in microseconds.
    static let fragmentDuration = 1_000_000

    private let format: UnsafeMutablePointer<AVFormatContext>
    private let stream: UnsafeMutablePointer<AVStream>
    private let encoderTimeBase: AVRational
    private var finished = false

    /// Creates `path` for the stream `encoder` makes and writes its header.
    init(path: String, encoder: UnsafeMutablePointer<AVCodecContext>) throws(MovieError) {
        var format: UnsafeMutablePointer<AVFormatContext>?
        let allocated = avformat_alloc_output_context2(&format, nil, "mp4", path)
        guard allocated >= 0, let format else {
            throw .ffmpeg("preparing the MP4 file \(path)", allocated, advice: "check that FFmpeg's libavformat is installed (make deps)")
        }
        guard let stream = avformat_new_stream(format, nil) else {
            avformat_free_context(format)
            throw MovieError("cannot add a video stream to \(path) — the machine is out of memory")
        }
        // From here on a throw runs deinit, which closes and frees what was opened.
        (self.format, self.stream, encoderTimeBase) = (format, stream, encoder.pointee.time_base)
        stream.pointee.time_base = encoder.pointee.time_base
        var code = avcodec_parameters_from_context(stream.pointee.codecpar, encoder)
        if code >= 0 { code = avio_open(&format.pointee.pb, path, AVIO_FLAG_WRITE) }
        guard code >= 0 else { throw .ffmpeg("creating \(path)", code, advice: "check that its folder exists and is writable") }
        // Each fragment reaches the file as it is completed, not when libavformat's buffer fills.
        format.pointee.flush_packets = 1
        var options: OpaquePointer?
        av_dict_set(&options, "movflags", "frag_keyframe+empty_moov+default_base_moof", 0)
        av_dict_set(&options, "frag_duration", "\(Self.fragmentDuration)", 0)
        code = avformat_write_header(format, &options)
        av_dict_free(&options)
        guard code >= 0 else { throw .ffmpeg("writing the header of \(path)", code, advice: "check the disk") }
    }

    deinit {
        if !finished { avio_closep(&format.pointee.pb) }
        avformat_free_context(format)
    }

    /// Bytes handed to the file so far (each completed fragment is flushed to it at once).
    var bytesWritten: Int64 { avio_tell(format.pointee.pb) }

    /// Writes one encoded packet (its timestamps in the encoder's time base).
    func write(_ packet: UnsafeMutablePointer<AVPacket>) throws(MovieError) {
        av_packet_rescale_ts(packet, encoderTimeBase, stream.pointee.time_base)
        packet.pointee.stream_index = stream.pointee.index
        let written = av_interleaved_write_frame(format, packet)
        guard written >= 0 else { throw .ffmpeg("writing the recording", written, advice: "check the free space on the disk") }
    }

    /// Writes the last fragment and closes the file.
    func finish() throws(MovieError) {
        guard !finished else { return }
        finished = true
        let trailer = av_write_trailer(format)
        let closed = avio_closep(&format.pointee.pb)
        guard trailer >= 0, closed >= 0 else {
            throw .ffmpeg("finishing the recording", trailer < 0 ? trailer : closed, advice: "check the free space on the disk")
        }
    }
}
