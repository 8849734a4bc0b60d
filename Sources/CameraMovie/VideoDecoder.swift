import CameraCore
internal import CFFmpeg

/// A libavcodec decoder for one stream: packets in, frames out, the same for reading a recording
/// back to validate it, for playing a video file as a camera and for decoding the file's sound
/// (`SoundTrackDecoder`).
final class VideoDecoder {
    private let context: UnsafeMutablePointer<AVCodecContext>
    /// The frame `receive` fills; valid until the next call.
    let frame: UnsafeMutablePointer<AVFrame>
    private let path: String
    /// What the stream is, for errors: "video" or "sound".
    private let media: String

    init(_ parameters: UnsafeMutablePointer<AVCodecParameters>, path: String, media: String = "video") throws(MovieError) {
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw MovieError("no decoder for the \(media) of \(path) — run make deps (installs FFmpeg's decoders)")
        }
        guard let context = avcodec_alloc_context3(codec), let frame = av_frame_alloc() else {
            throw MovieError("cannot allocate a decoder — the machine is out of memory")
        }
        (self.context, self.frame, self.path, self.media) = (context, frame, path, media)
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

    /// Hands the decoder `packet`, or nil at the end of the stream (it then gives out what it holds).
    func send(_ packet: UnsafeMutablePointer<AVPacket>?) throws(MovieError) {
        let sent = avcodec_send_packet(context, packet)
        guard sent >= 0 || (packet == nil && sent == cff_error_eof()) else {
            throw .ffmpeg("decoding the \(media) of \(path)", sent, advice: "the file is damaged")
        }
    }

    /// The next decoded frame into `frame`: false when the decoder needs another packet or has ended.
    func receive() throws(MovieError) -> Bool {
        av_frame_unref(frame)
        let received = avcodec_receive_frame(context, frame)
        if received == cff_error_again() || received == cff_error_eof() { return false }
        guard received >= 0 else { throw .ffmpeg("decoding the \(media) of \(path)", received, advice: "the file is damaged") }
        return true
    }

    /// Forgets the frames in flight, after a seek.
    func flush() {
        avcodec_flush_buffers(context)
    }
}
