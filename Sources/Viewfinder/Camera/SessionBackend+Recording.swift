import CameraMovie
import Foundation
import HTTPServer

extension SessionBackend {
    /// Starts a take through the recorder; refused when the camera cannot be recorded (409).
    public func startRecording(maxDuration: Double?, watermark: String?) async throws -> Data {
        let recorder = try recording.get()
        let limits: MovieRecording.Limits
        do {
            limits = try MovieRecording.Limits(maximumDuration: maxDuration, frameRate: device.settings.frameRate)
        } catch {
            throw HTTPError.badRequest("maxDuration: \(error)")
        }
        try await recorder.start(limits: limits, watermark: watermark)
        return try Self.encoder.encode(RecordingState(recorder.output.status))
    }

    /// Ends the take and answers its library entry.
    public func stopRecording() async throws -> Data {
        try Self.encoder.encode(LibraryEntry(try await recording.get().stop()))
    }
}
