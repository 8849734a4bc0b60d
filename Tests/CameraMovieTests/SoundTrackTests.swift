import CameraMovie
import Testing

@Suite("SoundTrack: a file's sound on the camera's timeline")
struct SoundTrackTests {
    @Test("samples wrap at the pass length, interleaved, with silence where the file's sound is shorter than its pictures")
    func wrapsAtThePass() {
        // Stereo, 3 sample frames of sound in a pass of 5.
        let track = SoundTrack(channelCount: 2, samples: [1, -1, 2, -2, 3, -3], passLength: 5)
        #expect(track.samples(from: 1, count: 6) == [2, -2, 3, -3, 0, 0, 0, 0, 1, -1, 2, -2])
        #expect(track.samples(from: 5 * 1_000 + 2, count: 1) == [3, -3], "a thousand passes on, the same sample")
    }
}
