internal import CFFmpeg

/// AAC encoding of interleaved Float32 samples through FFmpeg's native `aac` encoder (planar
/// float, 128 kb/s): samples are buffered until they fill one of the encoder's frames (1 024 per
/// channel), then de-interleaved into it; packets are handed on as they come. Timestamps count
/// samples of the recording, so the audio stream's time base is 1 / sample rate.
final class AudioEncoder {
    /// What the encoder is opened with.
    struct Settings {
        var sampleRate: Int
        var channelCount: Int
        var bitRate = 128_000
        /// Whether the codec configuration goes into the stream parameters (MP4 wants it there).
        var globalHeader: Bool
    }

    let context: UnsafeMutablePointer<AVCodecContext>
    private let frame: UnsafeMutablePointer<AVFrame>
    private let packet: UnsafeMutablePointer<AVPacket>
    private let channelCount: Int
    /// Samples of one encoder frame, per channel.
    private let frameSamples: Int
    /// Interleaved samples waiting to fill a frame.
    private var pending: [Float] = []
    /// Sample frames sent to the encoder so far: the next frame's timestamp.
    private var sent: Int64 = 0

    init(_ settings: Settings) throws(MovieError) {
        FFmpegLog.quiet
        guard let codec = avcodec_find_encoder_by_name("aac") else {
            throw MovieError("FFmpeg's AAC encoder is not in this build — run make deps (installs libavcodec)")
        }
        guard let context = avcodec_alloc_context3(codec), let frame = av_frame_alloc(), let packet = av_packet_alloc() else {
            throw MovieError("cannot allocate the AAC encoder — the machine is out of memory")
        }
        (self.context, self.frame, self.packet, channelCount) = (context, frame, packet, settings.channelCount)
        context.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        context.pointee.sample_rate = Int32(settings.sampleRate)
        context.pointee.bit_rate = Int64(settings.bitRate)
        context.pointee.time_base = AVRational(num: 1, den: Int32(settings.sampleRate))
        av_channel_layout_default(&context.pointee.ch_layout, Int32(settings.channelCount))
        if settings.globalHeader { context.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER) }
        let opened = avcodec_open2(context, codec, nil)
        guard opened >= 0 else {
            throw .ffmpeg("opening the AAC encoder for \(settings.channelCount) channels at \(settings.sampleRate) Hz", opened,
                          advice: "record mono or stereo at 48 000 Hz")
        }
        frameSamples = Int(context.pointee.frame_size)
        frame.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
        frame.pointee.sample_rate = context.pointee.sample_rate
        frame.pointee.nb_samples = context.pointee.frame_size
        let copied = av_channel_layout_copy(&frame.pointee.ch_layout, &context.pointee.ch_layout)
        let allocated = copied >= 0 ? av_frame_get_buffer(frame, 0) : copied
        guard allocated >= 0 else { throw .ffmpeg("allocating an audio frame", allocated, advice: "the machine is out of memory") }
    }

    deinit {
        var context: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&context)
        var frame: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&frame)
        var packet: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&packet)
    }

    /// Takes interleaved `samples` (whole sample frames) and encodes each full frame they complete;
    /// each packet the encoder has ready goes to `deliver`, valid only during the call.
    func encode(_ samples: ArraySlice<Float>, _ deliver: (UnsafeMutablePointer<AVPacket>) throws(MovieError) -> Void) throws(MovieError) {
        pending.append(contentsOf: samples)
        let frameLength = frameSamples * channelCount
        var start = 0
        while pending.count - start >= frameLength {
            try send(pending[start..<start + frameLength], deliver)
            start += frameLength
        }
        pending.removeFirst(start)
    }

    /// Encodes what is left (a shorter last frame) and drains the encoder.
    func finish(_ deliver: (UnsafeMutablePointer<AVPacket>) throws(MovieError) -> Void) throws(MovieError) {
        if !pending.isEmpty { try send(pending[...], deliver) }
        pending.removeAll()
        try drain(nil, deliver)
    }

    /// One frame of `samples` (at most a full frame), de-interleaved into the encoder's planes.
    private func send(_ samples: ArraySlice<Float>, _ deliver: (UnsafeMutablePointer<AVPacket>) throws(MovieError) -> Void) throws(MovieError) {
        let writable = av_frame_make_writable(frame)
        guard writable >= 0 else { throw .ffmpeg("preparing an audio frame", writable, advice: "the machine is out of memory") }
        let count = samples.count / channelCount
        frame.pointee.nb_samples = Int32(count)
        samples.withUnsafeBufferPointer { interleaved in
            for channel in 0..<channelCount {
                guard let plane = frame.pointee.extended_data[channel] else { continue }
                let output = UnsafeMutableRawPointer(plane).assumingMemoryBound(to: Float.self)
                for index in 0..<count { output[index] = interleaved[index * channelCount + channel] }
            }
        }
        frame.pointee.pts = sent
        sent += Int64(count)
        try drain(frame, deliver)
    }

    private func drain(_ frame: UnsafeMutablePointer<AVFrame>?, _ deliver: (UnsafeMutablePointer<AVPacket>) throws(MovieError) -> Void) throws(MovieError) {
        let accepted = avcodec_send_frame(context, frame)
        guard accepted >= 0 else { throw .ffmpeg("encoding audio", accepted, advice: "stop the recording and start it again") }
        while true {
            let received = avcodec_receive_packet(context, packet)
            if received == cff_error_again() || received == cff_error_eof() { return }
            guard received >= 0 else { throw .ffmpeg("encoding audio", received, advice: "stop the recording and start it again") }
            defer { av_packet_unref(packet) }
            try deliver(packet)
        }
    }
}
