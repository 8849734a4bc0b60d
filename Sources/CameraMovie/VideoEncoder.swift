import CameraCore
internal import CFFmpeg

/// H.264 encoding of camera frames through libavcodec: each frame converted to 4:2:0 BT.709
/// video range (bgra8 by `BGRAToYUV420`, the others by libswscale), a keyframe every second, packets handed on as they come. No
/// B-frames: packets come in presentation order, so a fragment of the file, cut at a keyframe,
/// ends at the same time in the video as in the audio beside it (a file cut by a kill stays in step).
final class VideoEncoder {
    /// What the encoder is opened with.
    struct Settings {
        var encoder = H264EncoderChoice.software
        var size: PixelSize
        /// Frames per second: the keyframe interval, and the rate the encoder plans its bits for.
        var frameRate: Int
        /// Whether the sequence headers go into the stream parameters (MP4 and FLV want them there).
        var globalHeader = true
        /// Bits a second for a live stream (capped, with a one-second buffer, no lookahead); nil
        /// encodes at libx264's constant quality, as a recording does.
        var bitRate: Int?
    }

    /// Timestamps of frames and packets count ticks of 1/90 000 s, MPEG's clock.
    static let timeBase = AVRational(num: 1, den: 90_000)

    let context: UnsafeMutablePointer<AVCodecContext>
    private let picture: UnsafeMutablePointer<AVFrame>
    private let packet: UnsafeMutablePointer<AVPacket>
    /// One frame's length in `timeBase` ticks.
    let frameDuration: Int64
    /// The converter from the camera's format, made for the first frame's format.
    private var converter: (format: PixelFormat, context: OpaquePointer)?

    init(_ settings: Settings) throws(MovieError) {
        FFmpegLog.quiet
        guard let codec = avcodec_find_encoder_by_name(settings.encoder) else {
            throw MovieError("the H.264 encoder \(settings.encoder) is not in this FFmpeg build — run make deps (installs libavcodec with libx264)")
        }
        guard let context = avcodec_alloc_context3(codec), let picture = av_frame_alloc(), let packet = av_packet_alloc() else {
            throw MovieError("cannot allocate the H.264 encoder — the machine is out of memory")
        }
        (self.context, self.picture, self.packet) = (context, picture, packet)
        frameDuration = Int64(Self.timeBase.den) / Int64(settings.frameRate)
        context.pointee.width = Int32(settings.size.width)
        context.pointee.height = Int32(settings.size.height)
        context.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        context.pointee.time_base = Self.timeBase
        context.pointee.framerate = AVRational(num: Int32(settings.frameRate), den: 1)
        context.pointee.gop_size = Int32(settings.frameRate)
        context.pointee.max_b_frames = 0
        context.pointee.color_range = AVCOL_RANGE_MPEG
        context.pointee.colorspace = AVCOL_SPC_BT709
        context.pointee.color_primaries = AVCOL_PRI_BT709
        context.pointee.color_trc = AVCOL_TRC_BT709
        if settings.globalHeader { context.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER) }
        if let bitRate = settings.bitRate {
            context.pointee.bit_rate = Int64(bitRate)
            context.pointee.rc_max_rate = Int64(bitRate)
            context.pointee.rc_buffer_size = Int32(clamping: bitRate)
        }
        if settings.encoder == H264EncoderChoice.software {
            av_opt_set(context.pointee.priv_data, "preset", H264EncoderChoice.softwarePreset, 0)
            if settings.bitRate == nil {
                av_opt_set(context.pointee.priv_data, "crf", "\(H264EncoderChoice.softwareRateFactor)", 0)
            } else {
                av_opt_set(context.pointee.priv_data, "tune", "zerolatency", 0)
            }
            // A keyframe asked for (a live stream's new connection) is an IDR: decodable on its own.
            av_opt_set(context.pointee.priv_data, "forced-idr", "1", 0)
        }
        let opened = avcodec_open2(context, codec, nil)
        guard opened >= 0 else {
            throw .ffmpeg("opening \(settings.encoder) at \(settings.size.width)x\(settings.size.height)", opened,
                          advice: "use an even frame size of at least 16x16")
        }
        picture.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        picture.pointee.width = context.pointee.width
        picture.pointee.height = context.pointee.height
        let allocated = av_frame_get_buffer(picture, 0)
        guard allocated >= 0 else { throw .ffmpeg("allocating an encoder frame", allocated, advice: "the machine is out of memory") }
    }

    deinit {
        if let converter { sws_freeContext(converter.context) }
        var context: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&context)
        var picture: UnsafeMutablePointer<AVFrame>? = picture
        av_frame_free(&picture)
        var packet: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&packet)
    }

    /// Encodes `buffer` at `pts` (in `timeBase` ticks), as a keyframe when `keyframe`, and hands each
    /// packet the encoder has ready to `deliver`; a packet is valid only during the call.
    func encode(_ buffer: PixelBuffer, pts: Int64, keyframe: Bool = false, _ deliver: (UnsafeMutablePointer<AVPacket>) throws(MovieError) -> Void) throws(MovieError) {
        guard buffer.width == Int(context.pointee.width), buffer.height == Int(context.pointee.height) else {
            throw MovieError("a \(buffer.width)x\(buffer.height) frame in a \(context.pointee.width)x\(context.pointee.height) recording — "
                + "stop the recording before changing the format")
        }
        let writable = av_frame_make_writable(picture)
        guard writable >= 0 else { throw .ffmpeg("preparing an encoder frame", writable, advice: "the machine is out of memory") }
        try convert(buffer)
        picture.pointee.pts = pts
        picture.pointee.pict_type = keyframe ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE
        try send(picture, deliver)
    }

    /// Drains the encoder: the packets of the frames it still holds go to `deliver`.
    func finish(_ deliver: (UnsafeMutablePointer<AVPacket>) throws(MovieError) -> Void) throws(MovieError) {
        try send(nil, deliver)
    }

    private func send(_ frame: UnsafeMutablePointer<AVFrame>?, _ deliver: (UnsafeMutablePointer<AVPacket>) throws(MovieError) -> Void) throws(MovieError) {
        let sent = avcodec_send_frame(context, frame)
        guard sent >= 0 else { throw .ffmpeg("encoding a frame", sent, advice: "stop the recording and start it again") }
        while true {
            let received = avcodec_receive_packet(context, packet)
            if received == cff_error_again() || received == cff_error_eof() { return }
            guard received >= 0 else { throw .ffmpeg("encoding a frame", received, advice: "stop the recording and start it again") }
            defer { av_packet_unref(packet) }
            // libx264 leaves durations out; the file needs them for its last frame's length.
            if packet.pointee.duration == 0 { packet.pointee.duration = frameDuration }
            try deliver(packet)
        }
    }

    /// Converts `buffer` into the encoder's 4:2:0 frame: bgra8 by `BGRAToYUV420`, the other formats
    /// with libswscale (BT.709 both sides).
    private func convert(_ buffer: PixelBuffer) throws(MovieError) {
        if buffer.format == .bgra8 {
            let (data, linesize) = (picture.pointee.data, picture.pointee.linesize)
            BGRAToYUV420(luma: data.0!, lumaStride: Int(linesize.0), blue: data.1!, blueStride: Int(linesize.1),
                         red: data.2!, redStride: Int(linesize.2)).convert(buffer)
            return
        }
        let scaler = try converter(for: buffer.format)
        var sources = buffer.planes.indices.map { UnsafePointer<UInt8>?(buffer.baseAddress(plane: $0).assumingMemoryBound(to: UInt8.self)) }
        var strides = buffer.planes.map { Int32($0.bytesPerRow) }
        sources += Array(repeating: nil, count: 4 - sources.count)
        strides += Array(repeating: 0, count: 4 - strides.count)
        let rows = withUnsafeMutablePointer(to: &picture.pointee.data) { data in
            withUnsafeMutablePointer(to: &picture.pointee.linesize) { linesize in
                data.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { data in
                    linesize.withMemoryRebound(to: Int32.self, capacity: 8) { linesize in
                        sws_scale(scaler, sources, strides, 0, Int32(buffer.height), data, linesize)
                    }
                }
            }
        }
        guard rows == Int32(buffer.height) else {
            throw MovieError("libswscale converted \(max(rows, 0)) of the \(buffer.height) rows of a \(buffer.format) frame — "
                + "stop the recording and start it again")
        }
    }

    /// The converter from `format`, made on first use.
    private func converter(for format: PixelFormat) throws(MovieError) -> OpaquePointer {
        if let converter, converter.format == format { return converter.context }
        let (source, fullRange): (AVPixelFormat, Bool)
        switch format {
        case .gray8: (source, fullRange) = (AV_PIX_FMT_GRAY8, true)
        case .nv12(let range): (source, fullRange) = (AV_PIX_FMT_NV12, range == .full)
        case .yuyv422: (source, fullRange) = (AV_PIX_FMT_YUYV422, false)
        case .bgra8: preconditionFailure("bgra8 frames are converted by BGRAToYUV420")
        case .bayer16: throw MovieError("a \(format) camera cannot be recorded — choose a bgra8, nv12, yuyv422 or gray8 format")
        }
        let (width, height) = (context.pointee.width, context.pointee.height)
        guard let scaler = sws_getContext(width, height, source, width, height, AV_PIX_FMT_YUV420P, Int32(SWS_BILINEAR), nil, nil, nil) else {
            throw MovieError("libswscale cannot convert \(format) to 4:2:0 — choose a bgra8 or nv12 format")
        }
        let bt709 = sws_getCoefficients(Int32(SWS_CS_ITU709))
        sws_setColorspaceDetails(scaler, bt709, fullRange ? 1 : 0, bt709, 0, 0, 1 << 16, 1 << 16)
        if let converter { sws_freeContext(converter.context) }
        converter = (format, scaler)
        return scaler
    }
}
