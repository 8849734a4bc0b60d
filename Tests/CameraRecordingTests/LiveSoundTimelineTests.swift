@testable import CameraRecording
import CameraCore
import Testing

/// A live microphone's chunks on the camera's timeline.
@Suite("Live sound on the camera's timeline")
struct LiveSoundTimelineTests {
    /// A chunk of `count` samples at 48 kHz from sample `start` of the microphone's timeline.
    static func chunk(at start: Int64, count: Int = 480) -> AudioChunk {
        AudioChunk(samples: [Float](repeating: 0, count: count), sampleRate: 48_000, channelCount: 1,
                   presentationTime: MediaTime(value: start, timescale: 48_000))
    }

    @Test("The least lag of the frames maps the microphone's time: started 0.5 s after a camera whose frames arrive 5 ms late at best")
    func mapsByTheFastestFrame() throws {
        let zero = ContinuousClock.now
        var timeline = LiveSoundTimeline(microphoneZero: zero)
        #expect(timeline.place(Self.chunk(at: 0)) == nil, "nothing places sound before the first frame")
        // The camera's 0 is 0.5 s before the microphone's; its frames reach the take 5 to 20 ms after they are presented.
        for (index, late) in [0.020, 0.012, 0.005, 0.009].enumerated() {
            let presented = 1.0 + Double(index) / 30
            timeline.frame(presented: presented, received: zero + .seconds(presented - 0.5 + late))
        }
        // Microphone time 0.25 s happened at camera time 0.75 s; the mapping places it 5 ms early, by the pipeline's least lag.
        let placed = timeline.place(Self.chunk(at: 12_000))
        let first = try #require(placed)
        #expect(first.presentationTime.value == Int64(((0.75 - 0.005) * 48_000).rounded()))
        #expect(first.samples.count == 480 && first.sampleRate == 48_000)
        // A faster frame later does not move the sound already placed: chunks follow sample by sample.
        timeline.frame(presented: 2, received: zero + .seconds(1.5 + 0.001))
        let following = timeline.place(Self.chunk(at: 12_480))
        let next = try #require(following)
        #expect(next.presentationTime.value == first.presentationTime.value + 480)
        #expect(timeline.end == next.presentationTime.value + 480)
    }
}
