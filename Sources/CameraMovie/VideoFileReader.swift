import CameraCore
internal import CFFmpeg

/// A video file read frame by frame, as a camera plays it: any container and codec FFmpeg reads,
/// each frame decoded and converted by libswscale into nv12 in BT.709 video range (the file's
/// own range and matrix on the way in), with its presentation time from the file.
public final class VideoFileReader {
    public let path: String
    public let size: PixelSize
    /// The video stream's frame rate as FFmpeg guesses it (`av_guess_frame_rate`); 30 when the file does not say.
    public let frameRate: Double
    private var input: UnsafeMutablePointer<AVFormatContext>?
    private let stream: UnsafeMutablePointer<AVStream>
    private let decoder: VideoDecoder
    private let packet: UnsafeMutablePointer<AVPacket>
    /// The converter for the decoded frames' format, remade when it changes, and the range and
    /// matrix it was set to.
    private var converter: OpaquePointer?
    private var converterColours: (fullRange: Int32, matrix: Int32)?
    /// The stream's first timestamp, which becomes time zero.
    private let startTime: Int64
    private var draining = false
    /// The decoder holds a frame not yet read: the first, decoded at open to prove the file plays.
    private var holdsFrame = false

    /// Codecs FFmpeg reads text files with (ANSI art and its kin, which its `tty` demuxer finds in
    /// any `.txt`): a text file is not a video, however it would render.
    static let textCodecs: Set<UInt32> = [AV_CODEC_ID_ANSI.rawValue, AV_CODEC_ID_BINTEXT.rawValue, AV_CODEC_ID_XBIN.rawValue,
                                          AV_CODEC_ID_IDF.rawValue]

    /// Opens `path` and decodes its first frame; throws naming the file and what is wrong with it
    /// (missing, unreadable, text, not a video, no video stream, no frame that decodes).
    public init(path: String) throws(MovieError) {
        FFmpegLog.quiet
        self.path = path
        var format: UnsafeMutablePointer<AVFormatContext>?
        let opened = avformat_open_input(&format, path, nil, nil)
        guard opened >= 0, let input = format else {
            throw .ffmpeg("opening the video file \(path)", opened, advice: "give the path of a video file FFmpeg can play")
        }
        self.input = input
        var failure: MovieError?
        let info = avformat_find_stream_info(input, nil)
        let video = Self.videoStream(of: input)
        if info < 0 {
            failure = .ffmpeg("reading the streams of \(path)", info, advice: "the file is damaged or not a video")
        } else if let video, Self.textCodecs.contains(video.pointee.codecpar.pointee.codec_id.rawValue) {
            failure = MovieError("\(path) is a text file, not a video — give a video file (MP4, MKV, WebM, …) that ffplay plays")
        } else if video == nil {
            failure = MovieError("\(path) has no video stream — give a video file, not a sound or a still image")
        }
        guard failure == nil, let video, let packet = av_packet_alloc() else {
            avformat_close_input(&format)
            throw failure ?? MovieError("cannot allocate a packet — the machine is out of memory")
        }
        do {
            decoder = try VideoDecoder(video.pointee.codecpar, path: path)
        } catch {
            var owned: UnsafeMutablePointer<AVPacket>? = packet
            av_packet_free(&owned)
            avformat_close_input(&format)
            throw error
        }
        (stream, self.packet) = (video, packet)
        let parameters = video.pointee.codecpar.pointee
        size = PixelSize(width: Int(parameters.width), height: Int(parameters.height))
        let rate = av_guess_frame_rate(input, video, nil)
        frameRate = rate.num > 0 && rate.den > 0 ? av_q2d(rate) : 30
        startTime = video.pointee.start_time == cff_no_pts() ? 0 : video.pointee.start_time
        holdsFrame = try decodeFrame()
        guard holdsFrame else {
            throw MovieError("\(path) has a video stream but no frame that decodes — the file is damaged or empty; give a video that ffplay plays")
        }
    }

    /// The file's video: its first video stream that is not a cover picture (an attached still).
    static func videoStream(of input: UnsafeMutablePointer<AVFormatContext>) -> UnsafeMutablePointer<AVStream>? {
        (0..<Int(input.pointee.nb_streams)).compactMap { input.pointee.streams[$0] }.first { stream in
            stream.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO && stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0
        }
    }

    deinit {
        if let converter { sws_freeContext(converter) }
        var owned: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&owned)
        avformat_close_input(&input)
    }

    /// Decodes the next frame into `buffer` (nv12, `size`) and returns its presentation time in
    /// seconds from the stream's first frame; nil at the end of the file.
    public func read(into buffer: PixelBuffer) throws(MovieError) -> Double? {
        guard case .nv12 = buffer.format, buffer.width == size.width, buffer.height == size.height else {
            throw MovieError("a \(buffer.width)x\(buffer.height) \(buffer.format) buffer for the \(size) video \(path) — read into nv12 of its size")
        }
        if !holdsFrame, !(try decodeFrame()) { return nil }
        holdsFrame = false
        try convert(decoder.frame, into: buffer)
        let frame = decoder.frame.pointee
        let pts = frame.best_effort_timestamp == cff_no_pts() ? frame.pts : frame.best_effort_timestamp
        return Double(pts - startTime) * av_q2d(stream.pointee.time_base)
    }

    /// Decodes the next frame into the decoder's `frame`; false at the end of the file.
    private func decodeFrame() throws(MovieError) -> Bool {
        while true {
            if try decoder.receive() { return true }
            if draining { return false }
            try feed()
        }
    }

    /// Goes back to the first frame.
    public func rewind() throws(MovieError) {
        let sought = av_seek_frame(input, stream.pointee.index, startTime, AVSEEK_FLAG_BACKWARD)
        guard sought >= 0 else { throw .ffmpeg("going back to the start of \(path)", sought, advice: "play it with --once") }
        decoder.flush()
        (draining, holdsFrame) = (false, false)
    }

    /// Hands the decoder the stream's next packet, or the end of the stream.
    private func feed() throws(MovieError) {
        while true {
            guard try readPacket(from: input, into: packet, path: path) else {
                try decoder.send(nil)
                draining = true
                return
            }
            defer { av_packet_unref(packet) }
            if packet.pointee.stream_index == stream.pointee.index {
                try decoder.send(packet)
                return
            }
        }
    }

    /// `frame` into `buffer` as nv12 in BT.709 video range.
    private func convert(_ frame: UnsafeMutablePointer<AVFrame>, into buffer: PixelBuffer) throws(MovieError) {
        let width = frame.pointee.width, height = frame.pointee.height
        guard Int(width) == size.width, Int(height) == size.height else {
            throw MovieError("\(path) changes its frame size to \(width)x\(height) mid-stream — CameraSun plays one size a file")
        }
        let source = AVPixelFormat(rawValue: frame.pointee.format)
        guard let context = sws_getCachedContext(converter, width, height, source, width, height, AV_PIX_FMT_NV12, Int32(SWS_BILINEAR),
                                                 nil, nil, nil) else {
            throw MovieError("libswscale cannot convert the frames of \(path) to nv12 — the video's pixel format is not supported")
        }
        let fullRange: Int32 = frame.pointee.color_range == AVCOL_RANGE_JPEG ? 1 : 0
        let matrix = frame.pointee.colorspace == AVCOL_SPC_UNSPECIFIED ? SWS_CS_ITU709 : Int32(frame.pointee.colorspace.rawValue)
        if context != converter || converterColours?.fullRange != fullRange || converterColours?.matrix != matrix {
            sws_setColorspaceDetails(context, sws_getCoefficients(matrix), fullRange, sws_getCoefficients(SWS_CS_ITU709), 0, 0, 1 << 16, 1 << 16)
            (converter, converterColours) = (context, (fullRange, matrix))
        }
        var destinations = [UnsafeMutablePointer<UInt8>?](repeating: nil, count: 4)
        var strides = [Int32](repeating: 0, count: 4)
        for plane in buffer.planes.indices {
            destinations[plane] = buffer.baseAddress(plane: plane).assumingMemoryBound(to: UInt8.self)
            strides[plane] = Int32(buffer.planes[plane].bytesPerRow)
        }
        let rows = withUnsafePointer(to: &frame.pointee.data) { data in
            withUnsafePointer(to: &frame.pointee.linesize) { linesize in
                data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { data in
                    linesize.withMemoryRebound(to: Int32.self, capacity: 8) { linesize in
                        sws_scale(context, data, linesize, 0, height, destinations, strides)
                    }
                }
            }
        }
        guard rows == height else {
            throw MovieError("libswscale converted \(max(rows, 0)) of the \(height) rows of a frame of \(path) — the file is damaged")
        }
    }
}
