import CameraCore
internal import CFFmpeg

/// The audio of one recording on the file's timeline, whose zero is the first video frame's time.
/// Each chunk is placed by its presentation time, not by arrival: audio before the zero or
/// overlapping audio already placed is dropped, a gap is filled with silence (so later audio stays
/// in sync). Samples are held until the video reaches them, so the audio never runs past the last
/// frame, and chunks that come before the first frame wait for it (up to `holdLimit`).
final class AudioTrack {
    /// The most audio held ahead of the video (or before the first frame): 2 s.
    static let holdLimit: MediaTime = MediaTime(value: 2, timescale: 1)

    let sampleRate: Int
    let channelCount: Int
    let encoder: AudioEncoder
    /// Chunks that came before the first video frame.
    private var early: [AudioChunk] = []
    /// Interleaved samples from `released` on, placed but not yet encoded.
    private var held: [Float] = []
    /// Sample frames encoded so far: the timeline position `held` starts at.
    private(set) var released: Int64 = 0
    /// Sample frames of silence put into gaps between chunks.
    private(set) var silenceFrames: Int64 = 0
    /// Sample frames dropped: before the zero, overlapping, after the last frame, or early beyond the limit.
    private(set) var droppedFrames: Int64 = 0

    init(sampleRate: Int, channelCount: Int, globalHeader: Bool) throws(MovieError) {
        guard sampleRate > 0, channelCount > 0 else {
            throw MovieError("audio of \(channelCount) channels at \(sampleRate) Hz — record at least 1 channel at a positive rate")
        }
        (self.sampleRate, self.channelCount) = (sampleRate, channelCount)
        encoder = try AudioEncoder(AudioEncoder.Settings(sampleRate: sampleRate, channelCount: channelCount, globalHeader: globalHeader))
    }

    private var heldFrames: Int64 { Int64(held.count / channelCount) }

    /// Places `chunk` on the timeline from `zero` (nil before the first frame: the chunk waits).
    func append(_ chunk: AudioChunk, zero: MediaTime?) throws(MovieError) {
        guard chunk.sampleRate == sampleRate, chunk.channelCount == channelCount else {
            throw MovieError("an audio chunk of \(chunk.channelCount) channels at \(chunk.sampleRate) Hz in a recording of "
                + "\(channelCount) at \(sampleRate) Hz — start the recording with the microphone's format")
        }
        guard let zero else {
            early.append(chunk)
            while let oldest = early.first, let newest = early.last, newest.endTime - oldest.presentationTime > Self.holdLimit {
                droppedFrames += Int64(oldest.frameCount)
                early.removeFirst()
            }
            return
        }
        let start = (chunk.presentationTime - zero).converted(toTimescale: Int32(sampleRate)).value
        let end = released + heldFrames
        var samples = chunk.samples[...]
        if start < end {
            let overlap = min(end - start, Int64(chunk.frameCount))
            samples = samples.dropFirst(Int(overlap) * channelCount)
            droppedFrames += overlap
        } else if start > end {
            held.append(contentsOf: repeatElement(0, count: Int(start - end) * channelCount))
            silenceFrames += start - end
        }
        held.append(contentsOf: samples)
        // While the camera stalls, the newest audio beyond the limit goes (memory stays bounded); the
        // take goes on, and audio after the stall is placed by its time again.
        let excess = heldFrames - Int64(Self.holdLimit.seconds * Double(sampleRate))
        if excess > 0 {
            held.removeLast(Int(excess) * channelCount)
            droppedFrames += excess
        }
    }

    /// Places the chunks that waited for the first frame, whose time is `zero`.
    func start(at zero: MediaTime) throws(MovieError) {
        let waiting = early
        early = []
        for chunk in waiting { try append(chunk, zero: zero) }
    }

    /// Encodes the held samples up to `end` (sample frames from the zero: the end of the last frame).
    func release(upTo end: Int64, _ deliver: (UnsafeMutablePointer<AVPacket>) throws(MovieError) -> Void) throws(MovieError) {
        let count = Int(min(heldFrames, end - released))
        guard count > 0 else { return }
        try encoder.encode(held[..<(count * channelCount)], deliver)
        held.removeFirst(count * channelCount)
        released += Int64(count)
    }

    /// Encodes up to `end`, drops what lies beyond it and drains the encoder.
    func finish(upTo end: Int64, _ deliver: (UnsafeMutablePointer<AVPacket>) throws(MovieError) -> Void) throws(MovieError) {
        try release(upTo: end, deliver)
        droppedFrames += heldFrames + Int64(early.reduce(0) { $0 + $1.frameCount })
        (held, early) = ([], [])
        try encoder.finish(deliver)
    }
}
