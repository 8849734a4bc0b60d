import CameraCore
internal import CFFmpeg

/// Camera frames into an H.264 fragmented MP4 file: the encoder and the file of one recording.
/// Frames must come in presentation order, all of one size; the first one's time is the file's zero.
public final class MovieFileWriter {
    /// What was written.
    public struct Summary: Equatable, Sendable {
        public let frames: Int
        /// From the first frame's time to the end of the last frame.
        public let duration: Double
        public let encoder: String

        public init(frames: Int, duration: Double, encoder: String) {
            self.frames = frames
            self.duration = duration
            self.encoder = encoder
        }
    }

    private let encoder: VideoEncoder
    private let muxer: FragmentedMP4Muxer
    private let encoderName: String
    /// The first frame's time, the file's zero; nil before the first frame.
    public private(set) var firstTime: MediaTime?
    private var lastPTS: Int64 = -1
    /// Frames appended so far.
    public private(set) var frames = 0

    /// Creates `path` for `size` frames at `frameRate` frames a second, encoded by `encoder`.
    public init(path: String, size: PixelSize, frameRate: Int, encoder: String = H264EncoderChoice.software) throws(MovieError) {
        guard frameRate > 0 else { throw MovieError("frame rate \(frameRate) — a recording needs at least 1 frame a second") }
        self.encoder = try VideoEncoder(VideoEncoder.Settings(encoder: encoder, size: size, frameRate: frameRate))
        muxer = try FragmentedMP4Muxer(path: path, encoder: self.encoder.context)
        encoderName = encoder
    }

    /// The file's size so far: every completed fragment (the one being built is in memory).
    public var bytesWritten: Int64 { muxer.bytesWritten }

    /// Encodes `frame` and writes what the encoder has ready.
    public func append(_ frame: Frame) throws(MovieError) {
        let first = firstTime ?? frame.presentationTime
        firstTime = first
        let elapsed = frame.presentationTime.seconds - first.seconds
        let pts = Int64((elapsed * Double(VideoEncoder.timeBase.den)).rounded())
        guard pts > lastPTS else {
            throw MovieError("frame \(frame.sequenceNumber) at \(frame.presentationTime.seconds) s is not after the frame before — "
                + "frames must come in presentation order")
        }
        lastPTS = pts
        try encoder.encode(frame.buffer, pts: pts) { (packet) throws(MovieError) in try muxer.write(packet) }
        frames += 1
    }

    /// Drains the encoder and closes the file.
    public func finish() throws(MovieError) -> Summary {
        try encoder.finish { (packet) throws(MovieError) in try muxer.write(packet) }
        try muxer.finish()
        let end = frames == 0 ? 0 : lastPTS + self.encoder.frameDuration
        return Summary(frames: frames, duration: Double(end) / Double(VideoEncoder.timeBase.den), encoder: encoderName)
    }
}
