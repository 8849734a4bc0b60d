import CameraCore
internal import CFFmpeg

extension H264EncoderChoice {
    /// The choice on this machine: each hardware encoder looked for and opened at `size`, 30 fps.
    public static func probed(size: PixelSize = PixelSize(width: 1280, height: 720)) -> H264EncoderChoice {
        choose { name in openFailure(name, size: size) }
    }

    /// Nil when `name` opens here for software frames, else why not. VA-API needs a device, and
    /// then frames uploaded to it, which the encoder does not do yet: a machine with a device is
    /// told so. The V4L2 memory-to-memory encoder looks for its own node when it opens.
    static func openFailure(_ name: String, size: PixelSize) -> String? {
        FFmpegLog.quiet
        guard let codec = avcodec_find_encoder_by_name(name) else { return "not in this FFmpeg build" }
        if name == "h264_vaapi" {
            var device: UnsafeMutablePointer<AVBufferRef>?
            let created = av_hwdevice_ctx_create(&device, AV_HWDEVICE_TYPE_VAAPI, nil, nil, 0)
            guard created >= 0 else { return "no VA-API device (\(FFmpegText.error(created)))" }
            av_buffer_unref(&device)
            return "a VA-API device is present, but CameraSun does not upload frames to it yet"
        }
        var context = avcodec_alloc_context3(codec)
        guard let opened = context else { return "out of memory" }
        defer { avcodec_free_context(&context) }
        opened.pointee.width = Int32(size.width)
        opened.pointee.height = Int32(size.height)
        opened.pointee.pix_fmt = AV_PIX_FMT_NV12
        opened.pointee.time_base = AVRational(num: 1, den: 30)
        opened.pointee.framerate = AVRational(num: 30, den: 1)
        let code = avcodec_open2(opened, codec, nil)
        return code >= 0 ? nil : "does not open (\(FFmpegText.error(code)))"
    }
}
