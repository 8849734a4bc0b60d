import CameraAudio
import CameraCore
import Testing

/// ALSA capture on this machine, which has no sound card: alsa-lib's `null` PCM opens for capture
/// and reads silence as fast as it is asked, and `hw:9,0` does not exist.
@Suite("ALSA microphone")
struct ALSAMicrophoneTests {
    @Test("The null device captures in the asked format and channels; chunks are contiguous periods of silence, no overrun",
          arguments: [ALSAMicrophone.SampleFormat.float32, .int16], [1, 2])
    func nullDeviceCaptures(format: ALSAMicrophone.SampleFormat, channels: Int) async throws {
        let microphone = ALSAMicrophone(device: "null", channelCount: channels, format: format)
        try microphone.start()
        defer { microphone.stop() }
        #expect(microphone.sampleFormat == format)
        var position: Int64 = 0
        for _ in 0..<20 {
            let chunk = try microphone.readChunk()
            #expect(chunk.sampleRate == 48_000 && chunk.channelCount == channels)
            #expect(chunk.presentationTime == MediaTime(value: position, timescale: 48_000))
            #expect(chunk.frameCount > 0 && chunk.frameCount <= 4_800, "\(chunk.frameCount) frames in a period of about 10 ms")
            #expect(chunk.samples.allSatisfy { $0 == 0 })
            position += Int64(chunk.frameCount)
        }
        #expect(position >= 20 * 48, "\(position) frames in 20 periods")
        #expect(microphone.overruns == 0 && microphone.lostFrames == 0)
    }

    @Test("Without a format asked, the null device gives FLOAT_LE")
    func prefersFloat() throws {
        let microphone = ALSAMicrophone(device: "null")
        try microphone.start()
        microphone.stop()
        #expect(microphone.sampleFormat == .float32)
        #expect(microphone.name == "ALSA null")
    }

    @Test("A device that does not exist fails naming it, with the remedy", arguments: ["hw:9,0", "no-such-pcm"])
    func missingDevice(device: String) async throws {
        let microphone = ALSAMicrophone(device: device)
        #expect(throws: AudioError("cannot open the ALSA capture device \(device): No such file or directory — "
            + "there is no such device; list devices with `arecord -L`")) { try microphone.start() }
        let error = #expect(throws: AudioError.self) { _ = try microphone.readChunk() }
        #expect(error?.message == "the ALSA microphone \(device) is not started — call start() before reading it")
    }
}
