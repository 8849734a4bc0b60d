import CameraAudio
import CameraCapture
import CameraCore
import CameraMovie
import CameraRecording
import CameraSimulated
import CameraTestSupport
import Foundation
import Testing

@Suite struct LiveMicrophoneTakeTests {
    @Test("A live microphone's take, on a real-time camera: its tone as long as the picture (validated), the microphone stopped at the end")
    func liveMicrophone() async throws {
        try await withTemporaryFile { path in
            let format = DeviceFormat(size: recordingSize, pixelFormat: .bgra8, frameRateRanges: [FrameRateRange(minimum: 1, maximum: 30)])
            let camera = try SimulatedCamera(scene: .grayCard, format: format, frameRate: 30, pacing: .realtime)
            let movie = MovieFileOutput()
            let events = movie.events
            let session = CaptureSession()
            try await session.configure { config in
                try config.add(DeviceInput(camera))
                try config.add(movie)
            }
            let microphone = PacedMicrophone()
            try movie.startRecording(to: path, limits: MovieRecording.Limits(maximumDuration: 2), sound: .live(microphone))
            try await session.start()
            let end = await MovieFileOutputTests.end(of: events)
            await session.stop()
            let saved = try MovieFileOutputTests.saved(end)
            #expect(saved.validation.hasAudio)
            let audio = try #require(saved.validation.audioDuration)
            #expect(abs(audio - saved.validation.duration) <= 1.0 / 30, "audio \(audio) s, video \(saved.validation.duration) s")
            #expect(throws: AudioError.self) { _ = try microphone.readChunk() }
            // The microphone's tone (RMS 0.071) is in the file, not silence put in its place.
            let decoded = try await runTool("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-i", saved.path, "-f", "f32le", "-ac", "1", "-"]).output
            let samples = decoded.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
            let rms = (samples.reduce(0) { $0 + Double($1 * $1) } / Double(max(samples.count, 1))).squareRoot()
            #expect(rms > 0.05, "RMS \(rms) over \(samples.count) samples")
        }
    }
}
