internal import CFFmpeg
import CameraSystem
import Glibc

/// One connection to a streaming server: FLV over RTMP through libavformat. Opening connects,
/// publishes and writes the FLV header with the sequence headers (`flvflags=no_duration_filesize`:
/// a live stream has neither); packets go out interleaved by time. Every read and write on the
/// socket gives up after `timeout` seconds without progress (`rw_timeout`), and a packet the socket
/// has not taken within `timeout` is given up (libavformat's interrupt callback): a server that
/// trickles a few bytes now and then would never trip `rw_timeout`. Once a write has failed,
/// closing gives up at once instead of waiting out the timeout again for each message it would send.
/// The socket's send buffer holds half a second of the stream (`sendBufferBytes`): enough to keep a
/// link with a round trip of up to half a second full, and small enough that a link slower than
/// the stream makes the writes wait, so the send queue — which drops whole groups of pictures —
/// sees it, instead of the kernel's buffer growing to megabytes of latency.
/// Used from one thread at a time.
public final class FLVPublisher {
    /// A connection that could not be made, and the server's answer when it refused the publish.
    public struct Failure: Error {
        public let error: MovieError
        /// The server's own words refusing the app or the stream key (nginx-rtmp's
        /// `NetStream.Publish.BadName` "Already publishing", a CDN's `NetConnection.Connect.Rejected`),
        /// as libavformat logs them; nil when the connection failed without an answer.
        public let refusal: String?

        init(_ error: MovieError, refusal: String? = nil) {
            (self.error, self.refusal) = (error, refusal)
        }
    }

    private let format: UnsafeMutablePointer<AVFormatContext>
    private let url: LiveStreamURL
    private let parameters: LiveStreamParameters
    private let timeout: Double
    /// When libavformat's interrupt callback stops the waits on the socket, in `MonotonicClock.nanoseconds`:
    /// 0 never, a packet's deadline while it is written, 1 (long past) once a write has failed.
    private let interruptAt: UnsafeMutablePointer<Int64>
    private var finished = false

    /// Connects to `url` and writes the header of a stream of `bitRate` bits a second from `parameters`.
    public init(url: LiveStreamURL, parameters: LiveStreamParameters, bitRate: Int, timeout: Double) throws(Failure) {
        (self.url, self.parameters, self.timeout) = (url, parameters, timeout)
        FFmpegLog.quiet
        var format: UnsafeMutablePointer<AVFormatContext>?
        let allocated = avformat_alloc_output_context2(&format, nil, "flv", nil)
        guard allocated >= 0, let format else {
            throw Failure(.ffmpeg("preparing the stream to \(url.masked)", allocated, advice: "check that FFmpeg's libavformat is installed (make deps)"))
        }
        // From here on a throw runs deinit, which closes and frees what was opened.
        self.format = format
        interruptAt = .allocate(capacity: 1)
        interruptAt.initialize(to: 0)
        for (codec, timeBase) in [(parameters.video, parameters.videoTimeBase)] + (parameters.audio.map { [($0, parameters.audioTimeBase!)] } ?? []) {
            guard let stream = avformat_new_stream(format, nil) else {
                throw Failure(MovieError("cannot add a stream to \(url.masked) — the machine is out of memory"))
            }
            stream.pointee.time_base = timeBase
            let copied = avcodec_parameters_copy(stream.pointee.codecpar, codec)
            guard copied >= 0 else { throw Failure(.ffmpeg("describing the stream to \(url.masked)", copied, advice: "the machine is out of memory")) }
        }
        var options: OpaquePointer?
        av_dict_set(&options, "rw_timeout", "\(Int(timeout * 1_000_000))", 0)
        av_dict_set(&options, "tcp_nodelay", "1", 0)
        av_dict_set(&options, "send_buffer_size", "\(Self.sendBufferBytes(bitRate: bitRate))", 0)
        var interrupt = AVIOInterruptCB(callback: { opaque in
            guard let at = opaque?.load(as: Int64.self), at != 0 else { return 0 }
            return MonotonicClock.nanoseconds >= at ? 1 : 0
        }, opaque: UnsafeMutableRawPointer(interruptAt))
        // The server's answer to the publish comes while connecting: libavformat waits for it there.
        let (opened, errors) = FFmpegLog.capturingErrors { avio_open2(&format.pointee.pb, url.url, AVIO_FLAG_WRITE, &interrupt, &options) }
        av_dict_free(&options)
        guard opened >= 0 else {
            if let answer = Self.serverAnswer(in: errors) {
                throw Failure(MovieError("the server at \(url.host):\(url.port) refused the stream to \(url.masked): \"\(answer)\" — check the app "
                                         + "(\(url.app)) and the stream key"), refusal: answer)
            }
            throw Failure(.ffmpeg("connecting to \(url.masked)", opened,
                                  advice: "check that the server runs at \(url.host):\(url.port) and accepts the app \(url.app) and this stream key"))
        }
        av_dict_set(&options, "flvflags", "no_duration_filesize", 0)
        let written = avformat_write_header(format, &options)
        av_dict_free(&options)
        guard written >= 0 else {
            interruptAt.pointee = 1
            throw Failure(.ffmpeg("publishing to \(url.masked)", written, advice: "check that the server accepts the app \(url.app) and this stream key"))
        }
    }

    /// The server's words in libavformat's RTMP error lines ("Server error: TEXT", logged for an
    /// `onStatus` of level error or an `_error` answer).
    static func serverAnswer(in lines: [String]) -> String? {
        let prefix = "Server error: "
        return lines.last { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
    }

    /// Half a second of a stream of `bitRate` bits a second, at least 64 KiB.
    static func sendBufferBytes(bitRate: Int) -> Int {
        max(64 << 10, bitRate / 8 / 2)
    }

    deinit {
        if !finished { avio_closep(&format.pointee.pb) }
        avformat_free_context(format)
        interruptAt.deallocate()
    }

    /// Bytes handed to the connection so far.
    public var bytesSent: Int64 { format.pointee.pb == nil ? 0 : avio_tell(format.pointee.pb) }

    /// Sends `packet`; throws when the connection fails, or the socket has not taken it within the timeout.
    public func write(_ packet: EncodedPacket) throws(MovieError) {
        let index = packet.track == .video ? 0 : 1
        let stream = format.pointee.streams[index]!
        let timeBase = packet.track == .video ? parameters.videoTimeBase : parameters.audioTimeBase!
        try packet.withAVPacket("sending to \(url.masked)") { (avPacket) throws(MovieError) in
            avPacket.pointee.stream_index = Int32(index)
            av_packet_rescale_ts(avPacket, timeBase, stream.pointee.time_base)
            let deadline = MonotonicClock.nanoseconds + Int64(timeout * 1e9)
            interruptAt.pointee = deadline
            let written = av_interleaved_write_frame(format, avPacket)
            guard written >= 0 else {
                let stalled = MonotonicClock.nanoseconds >= deadline
                interruptAt.pointee = 1
                if stalled {
                    throw MovieError("sending to \(url.masked) stalled: the server at \(url.host):\(url.port) took nothing for \(timeout) s "
                                     + "— the connection is dropped and tried again")
                }
                throw .ffmpeg("sending to \(url.masked)", written, advice: "the connection was lost; it is tried again")
            }
            interruptAt.pointee = 0
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
