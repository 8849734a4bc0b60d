import CameraCore
internal import CFFmpeg

/// Reads a video file's sound track whole into a `SoundTrack`: one pass over the file's packets,
/// the audio ones decoded by libavcodec and resampled by libswresample to 48 kHz Float32, the
/// video ones' timestamps giving the pass length a looping file starts over at (as
/// `VideoFileCamera` plays it: the last frame's time plus the spacing of the last two).
final class SoundTrackDecoder {
    let path: String
    private var input: UnsafeMutablePointer<AVFormatContext>?
    private let audio: UnsafeMutablePointer<AVStream>
    private let video: UnsafeMutablePointer<AVStream>
    private let decoder: VideoDecoder
    private let packet: UnsafeMutablePointer<AVPacket>
    private var resampler: OpaquePointer?
    private let channelCount: Int

    /// Opens `path`; nil when it has no sound or no video (the camera says what is wrong then).
    init?(path: String) throws(MovieError) {
        FFmpegLog.quiet
        self.path = path
        var format: UnsafeMutablePointer<AVFormatContext>?
        let opened = avformat_open_input(&format, path, nil, nil)
        guard opened >= 0, let input = format else {
            throw .ffmpeg("opening the video file \(path)", opened, advice: "give the path of a video file FFmpeg can play")
        }
        let info = avformat_find_stream_info(input, nil)
        let index = av_find_best_stream(input, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
        guard info >= 0, index >= 0, let audio = input.pointee.streams[Int(index)], let video = VideoFileReader.videoStream(of: input),
              let packet = av_packet_alloc() else {
            avformat_close_input(&format)
            if info < 0 { throw .ffmpeg("reading the streams of \(path)", info, advice: "the file is damaged or not a video") }
            return nil
        }
        do {
            decoder = try VideoDecoder(audio.pointee.codecpar, path: path, media: "sound")
        } catch {
            var owned: UnsafeMutablePointer<AVPacket>? = packet
            av_packet_free(&owned)
            avformat_close_input(&format)
            throw error
        }
        (self.input, self.audio, self.video, self.packet) = (input, audio, video, packet)
        channelCount = min(max(Int(audio.pointee.codecpar.pointee.ch_layout.nb_channels), 1), 2)
    }

    deinit {
        swr_free(&resampler)
        var owned: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&owned)
        avformat_close_input(&input)
    }

    /// Reads the whole file: its sound from the video's time 0, and the video's pass length.
    func decode() throws(MovieError) -> SoundTrack {
        let rate = Double(SoundTrack.sampleRate)
        let videoStart = video.pointee.start_time == cff_no_pts() ? 0 : video.pointee.start_time
        let videoBase = av_q2d(video.pointee.time_base)
        var frameTimes: [Int64] = []
        var samples: [Float] = []
        /// Where the next resampled sample frame lies on the video's timeline; set by the first decoded frame.
        var next: Int64?
        let limit = Int(MemoryBudget.bytes() / 4)
        func take(_ resampled: [Float]) throws(MovieError) {
            guard let at = next else { return }
            next = at + Int64(resampled.count / channelCount)
            var kept = resampled[...]
            if at < 0 {
                kept = kept.dropFirst(min(Int(-at) * channelCount, kept.count))  // sound before the video's first frame
            } else if samples.isEmpty {
                samples = [Float](repeating: 0, count: Int(at) * channelCount)  // silence until the sound starts
            }
            samples += kept
            guard samples.count <= limit else {
                throw MovieError("the sound of \(path) is longer than this machine holds (\(MemoryBudget.describe(bytes: UInt64(limit) * 4))) "
                    + "— record it with --audio none, or cut the file shorter")
            }
        }
        var draining = false
        while true {
            while try decoder.receive() {
                let frame = decoder.frame
                if next == nil {
                    let pts = frame.pointee.best_effort_timestamp == cff_no_pts() ? frame.pointee.pts : frame.pointee.best_effort_timestamp
                    let seconds = pts == cff_no_pts() ? 0 : Double(pts) * av_q2d(audio.pointee.time_base) - Double(videoStart) * videoBase
                    next = Int64((seconds * rate).rounded())
                }
                try take(try resample(frame))
            }
            if draining { break }
            guard try readPacket(from: input, into: packet, path: path) else {
                try decoder.send(nil)
                draining = true
                continue
            }
            defer { av_packet_unref(packet) }
            if packet.pointee.stream_index == video.pointee.index {
                let stamp = packet.pointee.pts == cff_no_pts() ? packet.pointee.dts : packet.pointee.pts
                if stamp != cff_no_pts() { frameTimes.append(stamp - videoStart) }
            } else if packet.pointee.stream_index == audio.pointee.index {
                try decoder.send(packet)
            }
        }
        if resampler != nil { try take(try resample(nil)) }
        return SoundTrack(channelCount: channelCount, samples: samples, passLength: passLength(frameTimes, base: videoBase))
    }

    /// One pass of the video in sample frames: the last frame's time plus the spacing of the last
    /// two (one frame at the guessed rate for a file of one frame).
    private func passLength(_ times: [Int64], base: Double) -> Int64 {
        let sorted = times.sorted()
        let guessed = av_guess_frame_rate(input, video, nil)
        let frame = guessed.num > 0 && guessed.den > 0 ? 1 / av_q2d(guessed) : 1.0 / 30
        guard let last = sorted.last else { return Int64((frame * Double(SoundTrack.sampleRate)).rounded()) }
        let spacing = sorted.count > 1 && last > sorted[sorted.count - 2] ? Double(last - sorted[sorted.count - 2]) * base : frame
        return Int64(((Double(last) * base + spacing) * Double(SoundTrack.sampleRate)).rounded())
    }

    /// `frame` (nil: what the resampler still holds) as interleaved Float32 at 48 kHz.
    private func resample(_ frame: UnsafeMutablePointer<AVFrame>?) throws(MovieError) -> [Float] {
        if let frame, resampler == nil { try makeResampler(for: frame) }
        let capacity = Int(swr_get_out_samples(resampler, frame?.pointee.nb_samples ?? 0))
        guard capacity > 0 else { return [] }
        var out = [Float](repeating: 0, count: capacity * channelCount)
        let converted = out.withUnsafeMutableBytes { bytes -> Int32 in
            var planes: [UnsafeMutablePointer<UInt8>?] = [bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)]
            return planes.withUnsafeMutableBufferPointer { planes in
                let input = frame.map { UnsafeMutableRawPointer($0.pointee.extended_data).assumingMemoryBound(to: UnsafePointer<UInt8>?.self) }
                return swr_convert(resampler, planes.baseAddress, Int32(capacity), input, frame?.pointee.nb_samples ?? 0)
            }
        }
        guard converted >= 0 else { throw .ffmpeg("resampling the sound of \(path)", converted, advice: "the file is damaged") }
        return Array(out.prefix(Int(converted) * channelCount))
    }

    /// The resampler from the decoded frames' format, rate and channels to 48 kHz Float32 in `channelCount` channels.
    private func makeResampler(for frame: UnsafeMutablePointer<AVFrame>) throws(MovieError) {
        var inLayout = AVChannelLayout(), outLayout = AVChannelLayout()
        defer { av_channel_layout_uninit(&inLayout); av_channel_layout_uninit(&outLayout) }
        if frame.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC {
            av_channel_layout_default(&inLayout, frame.pointee.ch_layout.nb_channels)
        } else {
            _ = av_channel_layout_copy(&inLayout, &frame.pointee.ch_layout)
        }
        av_channel_layout_default(&outLayout, Int32(channelCount))
        var context: OpaquePointer?
        var made = swr_alloc_set_opts2(&context, &outLayout, AV_SAMPLE_FMT_FLT, Int32(SoundTrack.sampleRate), &inLayout,
                                       AVSampleFormat(rawValue: frame.pointee.format), frame.pointee.sample_rate, 0, nil)
        if made >= 0 { made = swr_init(context) }
        guard made >= 0, context != nil else {
            swr_free(&context)
            throw .ffmpeg("setting up the resampler for the sound of \(path)", made, advice: "the sound's format is not supported — record with --audio none")
        }
        resampler = context
    }
}
