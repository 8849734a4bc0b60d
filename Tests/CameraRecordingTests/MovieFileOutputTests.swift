import CameraCapture
import CameraCore
import CameraMovie
import CameraRecording
import CameraSimulated
import CameraStills
import CameraTestSupport
import Foundation
import Testing

/// The session's movie output: takes beside the other outputs, read back by ffprobe.
@Suite struct MovieFileOutputTests {
    /// A session on a simulated camera (virtual pacing: as fast as the loop runs) with `movie`,
    /// and with `frames` a VideoDataOutput that hands the test every frame (one it does not
    /// consume holds the camera's buffers until the stream stalls).
    static func session(_ movie: MovieFileOutput, size: PixelSize = recordingSize,
                        pixelFormat: PixelFormat = .bayer16(.rggb, significantBits: 12),
                        frames: Bool = false, photos: PhotoOutput? = nil) async throws -> (CaptureSession, VideoDataOutput) {
        let format = DeviceFormat(size: size, pixelFormat: pixelFormat,
                                  frameRateRanges: [FrameRateRange(minimum: 1, maximum: 30)])
        let camera = try SimulatedCamera(scene: .backlitPortrait, format: format, frameRate: 30)
        let output = VideoDataOutput(alwaysDiscardsLateFrames: false)
        let session = CaptureSession()
        try await session.configure { config in
            try config.add(DeviceInput(camera))
            if frames { try config.add(output) }
            if let photos { try config.add(photos) }
            try config.add(movie)
        }
        return (session, output)
    }

    /// Waits until `output` has handed on `count` more frames.
    static func skip(_ count: Int, of output: VideoDataOutput) async {
        var seen = 0
        for await _ in output.frames {
            seen += 1
            if seen == count { return }
        }
    }

    /// The take `end` saved; a take that failed or never ended fails the test, naming what came.
    static func saved(_ end: MovieFileOutput.Event?) throws -> MovieRecording.Saved {
        guard case .finished(let saved) = end else { throw TakeDidNotFinish(event: end) }
        return saved
    }

    struct TakeDidNotFinish: Error, CustomStringConvertible {
        let event: MovieFileOutput.Event?
        var description: String { "the take did not finish: \(String(describing: event))" }
    }

    /// The first `.finished` or `.failed` event.
    static func end(of events: AsyncStream<MovieFileOutput.Event>) async -> MovieFileOutput.Event? {
        for await event in events {
            switch event {
            case .started: continue
            case .finished, .failed: return event
            }
        }
        return nil
    }

    @Test("A take with a 2 s limit on a raw camera run flat out: ended by the limit, all 60 frames in the file (the session waits for the encoder), none after")
    func limitedTake() async throws {
        try await withTemporaryFile { path in
            let movie = MovieFileOutput()
            let events = movie.events
            let (session, _) = try await Self.session(movie)
            try movie.startRecording(to: path, limits: MovieRecording.Limits(maximumDuration: 2))
            try await session.start()
            let end = await Self.end(of: events)
            await session.stop()
            let saved = try Self.saved(end)
            #expect(saved.reason == .maximumDuration)
            let status = movie.status
            #expect(!status.isRecording)
            // The limit is on time, and a camera that waits for the session loses no frame to a busy encoder.
            #expect(status.frames == 60 && status.droppedFrames == 0, "\(status.frames) written, \(status.droppedFrames) dropped")
            let probe = try await FFprobe.streams(of: path)
            #expect(probe.codec == "h264")
            #expect(probe.frames == status.frames)
            #expect(saved.validation.frames == status.frames)
            #expect(try await FFprobe.decodeErrors(of: path).isEmpty)
        }
    }

    @Test("Stopped by hand while the session runs on: reason stopped, the file's frames are the output's count")
    func stoppedTake() async throws {
        try await withTemporaryFile { path in
            let movie = MovieFileOutput()
            let (session, frames) = try await Self.session(movie, frames: true)
            try await session.start()
            try movie.startRecording(to: path, limits: MovieRecording.Limits())
            await Self.skip(45, of: frames)
            let saved = try await movie.stopRecording()
            await session.stop()
            #expect(saved.reason == .stopped)
            #expect(saved.path == path)
            #expect(!FileManager.default.fileExists(atPath: path + MovieRecording.partialSuffix))
            let status = movie.status
            #expect(status.frames > 0 && status.frames <= 45 + MovieFileOutput.queueLimit, "\(status.frames) frames")
            #expect(try await FFprobe.streams(of: path).frames == status.frames)
        }
    }

    @Test("A photo taken while recording: both outputs in one session, the photo a JPEG of a frame the take ran through")
    func photoWhileRecording() async throws {
        try await withTemporaryFile { path in
            let movie = MovieFileOutput()
            let photos = PhotoOutput()
            let (session, frames) = try await Self.session(movie, frames: true, photos: photos)
            try await session.start()
            try movie.startRecording(to: path, limits: MovieRecording.Limits())
            await Self.skip(15, of: frames)
            let photo = try await photos.capture(PhotoSettings())
            await Self.skip(15, of: frames)
            let saved = try await movie.stopRecording()
            await session.stop()
            #expect(Array(photo.data.prefix(3)) == [0xFF, 0xD8, 0xFF])
            #expect(photo.size == recordingSize)
            // The photo's frame came while the take ran: the newest at the request — the 15th (sequence 14), or the
            // 14th when the test saw the 15th before the photo output, fed after the frames' output, had it — or
            // later, before the 30th, which the take ran through.
            #expect((13..<30).contains(photo.sequenceNumber), "photo of frame \(photo.sequenceNumber)")
            #expect(saved.reason == .stopped)
            #expect(try await FFprobe.streams(of: path).frames == movie.status.frames)
        }
    }

    @Test("A second take while one runs, and a stop with none, are refused saying what to do")
    func misuse() async throws {
        try await withTemporaryFile { path in
            let movie = MovieFileOutput()
            await #expect(throws: MovieError("no take is being recorded — start one first")) { try await movie.stopRecording() }
            try movie.startRecording(to: path, limits: MovieRecording.Limits())
            #expect(throws: MovieError("already recording to \(path) — stop that take first")) {
                try movie.startRecording(to: path + ".2", limits: MovieRecording.Limits())
            }
        }
    }

    @Test("An odd frame size fails the session's configuration, naming the size H.264 cannot take")
    func oddSize() async throws {
        let movie = MovieFileOutput()
        let error = await #expect(throws: CaptureError.self) { try await Self.session(movie, size: PixelSize(width: 161, height: 90), pixelFormat: .bgra8) }
        #expect(error?.description.contains("even width and height, not 161x90") == true, "\(String(describing: error))")
    }
}
