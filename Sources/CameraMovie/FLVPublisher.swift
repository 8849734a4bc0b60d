internal import CFFmpeg

/// One connection to a streaming server: FLV over RTMP through libavformat. Opening connects,
/// publishes and writes the FLV header with the sequence headers (`flvflags=no_duration_filesize`:
/// a live stream has neither); packets go out interleaved by time. Every read and write on the
/// socket gives up after `timeout` seconds (`rw_timeout`), so a stalled or dead link is noticed.
/// The socket's send buffer holds half a second of the stream (`sendBufferBytes`): enough to keep a
/// link with a round trip of up to half a second full, and small enough that a link slower than
/// the stream makes the writes wait, so the send queue — which drops whole groups of pictures —
/// sees it, instead of the kernel's buffer growing to megabytes of latency.
/// Used from one thread at a time.
public final class FLVPublisher {
    private let format: UnsafeMutablePointer<AVFormatContext>
    private let url: LiveStreamURL
    private let parameters: LiveStreamParameters
    private var finished = false

    /// Connects to `url` and writes the header of a stream of `bitRate` bits a second from `parameters`.
    public init(url: LiveStreamURL, parameters: LiveStreamParameters, bitRate: Int, timeout: Double) throws(MovieError) {
        (self.url, self.parameters) = (url, parameters)
        FFmpegLog.quiet
        var format: UnsafeMutablePointer<AVFormatContext>?
        let allocated = avformat_alloc_output_context2(&format, nil, "flv", nil)
        guard allocated >= 0, let format else {
            throw .ffmpeg("preparing the stream to \(url.masked)", allocated, advice: "check that FFmpeg's libavformat is installed (make deps)")
        }
        // From here on a throw runs deinit, which closes and frees what was opened.
        self.format = format
        for (codec, timeBase) in [(parameters.video, parameters.videoTimeBase)] + (parameters.audio.map { [($0, parameters.audioTimeBase!)] } ?? []) {
            guard let stream = avformat_new_stream(format, nil) else {
                throw MovieError("cannot add a stream to \(url.masked) — the machine is out of memory")
            }
            stream.pointee.time_base = timeBase
            let copied = avcodec_parameters_copy(stream.pointee.codecpar, codec)
            guard copied >= 0 else { throw .ffmpeg("describing the stream to \(url.masked)", copied, advice: "the machine is out of memory") }
        }
        var options: OpaquePointer?
        av_dict_set(&options, "rw_timeout", "\(Int(timeout * 1_000_000))", 0)
        av_dict_set(&options, "tcp_nodelay", "1", 0)
        av_dict_set(&options, "send_buffer_size", "\(Self.sendBufferBytes(bitRate: bitRate))", 0)
        let opened = avio_open2(&format.pointee.pb, url.url, AVIO_FLAG_WRITE, nil, &options)
        av_dict_free(&options)
        guard opened >= 0 else {
            throw .ffmpeg("connecting to \(url.masked)", opened,
                          advice: "check that the server runs at \(url.host):\(url.port) and accepts the app \(url.app) and this stream key")
        }
        av_dict_set(&options, "flvflags", "no_duration_filesize", 0)
        let written = avformat_write_header(format, &options)
        av_dict_free(&options)
        guard written >= 0 else {
            throw .ffmpeg("publishing to \(url.masked)", written, advice: "check that the server accepts the app \(url.app) and this stream key")
        }
    }

    /// Half a second of a stream of `bitRate` bits a second, at least 64 KiB.
    static func sendBufferBytes(bitRate: Int) -> Int {
        max(64 << 10, bitRate / 8 / 2)
    }

    deinit {
        if !finished { avio_closep(&format.pointee.pb) }
        avformat_free_context(format)
    }

    /// Bytes handed to the connection so far.
    public var bytesSent: Int64 { format.pointee.pb == nil ? 0 : avio_tell(format.pointee.pb) }

    /// Sends `packet`; throws when the connection fails or stalls past the timeout.
    public func write(_ packet: EncodedPacket) throws(MovieError) {
        let index = packet.track == .video ? 0 : 1
        let stream = format.pointee.streams[index]!
        let timeBase = packet.track == .video ? parameters.videoTimeBase : parameters.audioTimeBase!
        try packet.withAVPacket("sending to \(url.masked)") { (avPacket) throws(MovieError) in
            avPacket.pointee.stream_index = Int32(index)
            av_packet_rescale_ts(avPacket, timeBase, stream.pointee.time_base)
            let written = av_interleaved_write_frame(format, avPacket)
            guard written >= 0 else {
                throw .ffmpeg("sending to \(url.masked)", written, advice: "the connection was lost or stalled; it is tried again")
            }
        }
    }

    /// Ends the stream: the packets held for interleaving and the trailer are sent, the
    /// connection closed (the server sees the stream end).
    public func finish() throws(MovieError) {
        guard !finished else { return }
        finished = true
        let code = OutputTrailer.write(format)
        guard code >= 0 else { throw .ffmpeg("ending the stream to \(url.masked)", code, advice: "the server may not have seen the end") }
    }
}
