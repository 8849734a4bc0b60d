/// A run of audio from a microphone: interleaved Float32 samples in −1…1 (frame by frame, one
/// sample per channel), with the time of its first sample on the same media timeline as the
/// camera's frames (`Frame.presentationTime`, from 0 at the stream's start), so that a recording
/// lines the two up by time alone.
public struct AudioChunk: Sendable, Equatable {
    /// Interleaved samples: `frameCount × channelCount` of them.
    public let samples: [Float]
    /// Sample frames a second (48 000 for CameraSun's microphones).
    public let sampleRate: Int
    public let channelCount: Int
    /// When the first sample was taken.
    public let presentationTime: MediaTime

    /// A chunk of `samples`; a positive rate and channel count are the caller's to give, and a
    /// sample count that is not a whole number of frames is cut to whole frames.
    public init(samples: [Float], sampleRate: Int, channelCount: Int, presentationTime: MediaTime) {
        let channels = max(channelCount, 1)
        self.samples = samples.count % channels == 0 ? samples : Array(samples.prefix(samples.count / channels * channels))
        self.sampleRate = max(sampleRate, 1)
        self.channelCount = channels
        self.presentationTime = presentationTime
    }

    /// Sample frames in the chunk (one sample of every channel each).
    public var frameCount: Int { samples.count / channelCount }

    /// How long the chunk lasts, exactly.
    public var duration: MediaTime { MediaTime(value: Int64(frameCount), timescale: Int32(clamping: sampleRate)) }

    /// The time just after the chunk's last sample.
    public var endTime: MediaTime { presentationTime + duration }
}
