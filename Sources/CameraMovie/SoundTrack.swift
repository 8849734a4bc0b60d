/// A video file's own sound, decoded whole (`SoundTrackDecoder`) and resampled to what the AAC
/// encoder takes (48 kHz Float32, mono or stereo), laid on the file's video timeline: sample 0 is
/// the first frame's time, so a file played as a camera records its pictures and sound in step.
/// Held in memory (384 kB a second of stereo): a file source is a clip, not a feature film.
public struct SoundTrack: Sendable {
    public static let sampleRate = 48_000

    public let sampleRate = SoundTrack.sampleRate
    /// 1 or 2: the file's own, a file with more channels mixed down to stereo.
    public let channelCount: Int
    /// Interleaved samples from the video's time 0; the file's silence before its sound starts included.
    public let samples: [Float]
    /// Sample frames in one pass of the video (its last frame's time plus one frame): where the
    /// sound starts again when the file loops.
    public let passLength: Int64

    public init(channelCount: Int, samples: [Float], passLength: Int64) {
        (self.channelCount, self.samples, self.passLength) = (channelCount, samples, passLength)
    }

    /// The sound of the file at `path`, nil when it has none; throws naming the file when it
    /// cannot be read or its sound decoded.
    public static func decode(path: String) throws(MovieError) -> SoundTrack? {
        try SoundTrackDecoder(path: path)?.decode()
    }

    /// `count` sample frames from `index` on the camera's timeline, interleaved: the pass's sound
    /// from `index` modulo the pass length, silence where the file has none.
    public func samples(from index: Int64, count: Int) -> [Float] {
        var out = [Float](repeating: 0, count: max(count, 0) * channelCount)
        let frames = Int64(samples.count / channelCount)
        guard passLength > 0, frames > 0 else { return out }
        for offset in 0..<max(count, 0) {
            let position = ((index + Int64(offset)) % passLength + passLength) % passLength
            guard position < frames else { continue }
            let from = Int(position) * channelCount, to = offset * channelCount
            for channel in 0..<channelCount { out[to + channel] = samples[from + channel] }
        }
        return out
    }
}
