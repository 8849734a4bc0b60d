import CameraAudio
import CameraCapture
import CameraCore
import CameraMovie
import CameraRecording
import CameraSimulated
import CameraTestSupport
import Foundation
import Testing

/// The live stream: its URL checks, its send queue, and streams pushed to nginx-rtmp.
@Suite struct LiveStreamTests {
    @Test("A URL that is not rtmp://HOST[:PORT]/APP/KEY is refused by name, the stream key masked",
          arguments: [("camera1", "is not a URL"), ("http://127.0.0.1/live/key", "the scheme http is not supported"),
                      ("rtmp://127.0.0.1/live", "lacks a host, an app or a stream key"),
                      ("rtmp://127.0.0.1:99999/live/secret", "port 99999 is not a number")])
    func badURL(text: String, reason: String) throws {
        let error = #expect(throws: MovieError.self) { _ = try LiveStreamURL(text) }
        #expect(error?.message.contains(reason) == true, "\(String(describing: error))")
        #expect(error?.message.contains("rtmp://HOST[:PORT]/APP/KEY") == true)
        #expect(error?.message.contains("secret") == false)
    }

    @Test("A good URL: host, port (1935 by default), app, key; the key masked")
    func goodURL() throws {
        let url = try LiveStreamURL("rtmp://example.org/live/abc123")
        #expect((url.host, url.port, url.app, url.key) == ("example.org", 1935, "live", "abc123"))
        #expect(url.masked == "rtmp://example.org/live/****")
        #expect(try LiveStreamURL("rtmp://10.0.0.2:1936/app/k").port == 1936)
    }

    /// A packet of `track` at `time` seconds, `bytes` long.
    static func packet(_ track: EncodedPacket.Track = .video, at time: Double, keyframe: Bool = false, bytes: Int = 1_000) -> EncodedPacket {
        EncodedPacket(track: track, bytes: [UInt8](repeating: 0, count: bytes), pts: Int64(time * 90_000), dts: Int64(time * 90_000),
                      duration: 3_000, isKeyframe: keyframe, time: time)
    }

    @Test("The send queue, over its 1 s bound, drops the oldest whole group of pictures (keyframe to keyframe) and counts it")
    func queueDropsWholeGroups() {
        var queue = LiveSendQueue(durationLimit: 1, byteLimit: 1 << 30)
        // 10 fps, a keyframe every 5 frames: groups at 0, 0.5, 1.0 s; 1.1 s queued passes the bound.
        for index in 0..<12 { queue.push(Self.packet(at: Double(index) / 10, keyframe: index % 5 == 0)) }
        #expect(queue.droppedGroups == 1)
        #expect(queue.droppedFrames == 5)
        #expect(queue.pop()?.isKeyframe == true)
        #expect(queue.highWaterDuration <= 1)
        // With no keyframe queued after the head, all goes and frames are refused up to the next keyframe.
        var unbroken = LiveSendQueue(durationLimit: 1, byteLimit: 1 << 30)
        for index in 0..<12 { unbroken.push(Self.packet(at: Double(index) / 10, keyframe: index == 0)) }
        #expect(unbroken.isEmpty)
        unbroken.push(Self.packet(at: 1.2))
        #expect(unbroken.isEmpty)
        unbroken.push(Self.packet(at: 1.3, keyframe: true))
        #expect(unbroken.count == 1)
        #expect(unbroken.droppedFrames == 13)
    }

    @Test("The send queue's byte bound holds: the high-water mark stays under it")
    func queueByteBound() {
        var queue = LiveSendQueue(durationLimit: 100, byteLimit: 10_000)
        for index in 0..<100 { queue.push(Self.packet(at: Double(index) / 30, keyframe: index % 10 == 0, bytes: 800)) }
        #expect(queue.highWaterBytes <= 10_000)
        #expect(queue.droppedGroups > 0)
        #expect(queue.pop()?.isKeyframe == true)
    }

    /// A session on a realtime simulated camera (sync marks on) with `stream`, and `movie` beside it when given.
    static func session(_ stream: LiveStreamOutput, beside movie: MovieFileOutput? = nil, size: PixelSize = recordingSize) async throws
        -> CaptureSession {
        let format = DeviceFormat(size: size, pixelFormat: .bgra8, frameRateRanges: [FrameRateRange(minimum: 1, maximum: 30)])
        let camera = try SimulatedCamera(scene: .backlitPortrait, format: format, frameRate: 30, pacing: .realtime, syncMarks: true)
        let session = CaptureSession()
        try await session.configure { config in
            try config.add(DeviceInput(camera))
            try config.add(stream)
            if let movie { try config.add(movie) }
        }
        return session
    }

    /// The first event that is not a dropped group.
    static func firstEvent(of events: AsyncStream<LiveStreamOutput.Event>) async -> LiveStreamOutput.Event? {
        for await event in events {
            if case .droppedGroup = event { continue }
            return event
        }
        return nil
    }

    @Test("Nothing listening: the stream fails at once with an error naming the URL (key masked) and what to check")
    func refused() async throws {
        let stream = LiveStreamOutput()
        let events = stream.events
        let session = try await Self.session(stream)
        try stream.start(url: "rtmp://127.0.0.1:9/live/secretkey")
        try await session.start()
        let event = await Self.firstEvent(of: events)
        await session.stop()
        guard case .failed(let error) = event else {
            Issue.record("expected a failure, got \(String(describing: event))")
            return
        }
        #expect(error.message.contains("connecting to rtmp://127.0.0.1:9/live/****"), "\(error)")
        #expect(error.message.contains("check that the server runs at 127.0.0.1:9"), "\(error)")
        #expect(!error.message.contains("secretkey"))
        #expect(stream.status.state == .failed)
    }

    /// Seconds the A/V sync test pushes: 10 by default, the acceptance's 60 with CAMERASUN_LIVE_SECONDS=60.
    static let syncSeconds = ProcessInfo.processInfo.environment["CAMERASUN_LIVE_SECONDS"].flatMap(Int.init) ?? 10

    /// Streams with the simulated microphone until `frames` more frames are sent.
    static func push(_ stream: LiveStreamOutput, to url: String, frames: Int) async throws {
        let events = stream.events
        try stream.start(url: url, settings: LiveStreamOutput.Settings(bitRate: 500_000, sound: .simulated(SimulatedMicrophone(clicks: true))))
        let event = await firstEvent(of: events)
        guard case .connected = event else { throw NotConnected(event: event) }
        #expect(try await eventually(timeout: .seconds(Double(frames) / 30 * 3 + 30)) { stream.status.sentFrames >= frames }, "\(stream.status)")
    }

    struct NotConnected: Error, CustomStringConvertible {
        let event: LiveStreamOutput.Event?
        var description: String { "the stream did not connect: \(String(describing: event))" }
    }

    /// The recordings nginx has closed once `count` publishers have come and gone.
    static func recordings(of server: NginxRTMPServer, afterPublishes count: Int) async throws -> [String] {
        #expect(try await eventually { server.publishesEnded() == count }, "\(server.publishesEnded()) publishes ended")
        return try server.recordings().map(\.path)
    }

    @Test("N s pushed to nginx-rtmp: its recording has H.264 + AAC, the frames sent (within 1%), each click within a frame of its flash at the start and the end")
    func avSync() async throws {
        try await withNginxRTMP { server in
            let stream = LiveStreamOutput()
            let session = try await Self.session(stream)
            try await session.start()
            try await Self.push(stream, to: server.url(key: "sync"), frames: Self.syncSeconds * 30)
            let final = await stream.stop()
            await session.stop()
            #expect(final.state == .stopped)
            // Frames dropped on a loaded machine (the encoder behind, a stalled send) are counted, never sent.
            #expect(final.reconnects == 0, "\(final)")
            let recording = try #require(try await Self.recordings(of: server, afterPublishes: 1).first)
            let video = try await FFprobe.streams(of: recording)
            #expect(video.codec == "h264")
            #expect(try await FFprobe.audioStream(of: recording).codec == "aac")
            #expect(abs(video.frames - final.sentFrames) <= final.sentFrames / 100, "\(video.frames) frames recorded, \(final.sentFrames) sent")
            let marks = try await SyncMarkReading(path: recording)
            let end = video.start + video.duration
            #expect(marks.flashes.contains { $0 < video.start + 3 } && marks.flashes.contains { $0 > end - 3 }, "flashes at \(marks.flashes)")
            for (flash, offset) in marks.offsets {
                #expect(offset <= 1.0 / 30, "the click nearest the flash frame at \(flash) s is \(offset) s from it")
            }
        }
    }

    @Test("nginx killed mid-stream and back 5 s later: reconnected within 5 s, the new recording starts on a keyframe, the take beside it has no gap",
          arguments: [false, true])
    func reconnect(sharingEncode: Bool) async throws {
        try await withNginxRTMP { server in
            try await withTemporaryFile { take in
                let stream = LiveStreamOutput()
                let movie = MovieFileOutput()
                let events = stream.events
                let session = try await Self.session(stream, beside: movie)
                try await session.start()
                // A take of its own, or one sharing the stream's encode, which goes on encoding while the server is away.
                if !sharingEncode { try movie.startRecording(to: take, limits: MovieRecording.Limits()) }
                // Up longer than the 5 s timeout: a server lost sooner after the first connection counts as refusing the stream.
                try await Self.push(stream, to: server.url(key: "cam1"), frames: 180)
                if sharingEncode { try movie.startRecording(to: take, limits: MovieRecording.Limits(), sharingEncodeOf: stream) }
                try await server.kill()
                // The outage itself, as the acceptance stages it: the server is away for 5 s.
                try await Task.sleep(for: .seconds(5))
                try await server.restart()
                let back = ContinuousClock.now
                var reconnected: ContinuousClock.Instant?
                for await event in events {
                    if case .connected(let attempt) = event, attempt > 0 {
                        reconnected = .now
                        break
                    }
                }
                let delay = try #require(reconnected) - back
                #expect(delay <= .seconds(5), "reconnected \(delay) after the server was back")
                let sent = stream.status.sentFrames
                #expect(try await eventually { stream.status.sentFrames >= sent + 30 })
                let final = await stream.stop()
                let saved = try await movie.stopRecording()
                await session.stop()
                #expect(final.reconnects == 1 && final.state == .stopped, "\(final)")

                // The publish cut by the kill is not counted as ended; the second one is.
                let recordings = try await Self.recordings(of: server, afterPublishes: 1)
                try #require(recordings.count == 2, "\(recordings)")
                let firstFrame = try await runTool("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v:0", "-read_intervals", "%+#1",
                                                                   "-show_entries", "frame=key_frame,pict_type", "-of", "csv=p=0", recordings[1]])
                #expect(String(decoding: firstFrame.output, as: UTF8.self).hasPrefix("1,I"), "\(String(decoding: firstFrame.output, as: UTF8.self))")
                #expect(try await FFprobe.streams(of: recordings[1]).frames >= 30)

                // The take went on through the outage: no frame more than a few frames' time after the one before.
                let times = try await videoFrameTimes(of: saved.path)
                let longest = zip(times.dropFirst(), times).map { $0 - $1 }.max() ?? .infinity
                #expect(times.count >= 5 * 30 && longest < Self.takeGapBound, "\(times.count) frames, the longest gap \(longest) s")
            }
        }
    }

    @Test("A live microphone streamed: nginx records its tone beside the pictures, as long as them; the stream's end stops the microphone")
    func liveMicrophone() async throws {
        try await withNginxRTMP { server in
            let stream = LiveStreamOutput()
            let session = try await Self.session(stream)
            let microphone = PacedMicrophone()
            try stream.start(url: server.url(key: "microphone"), settings: LiveStreamOutput.Settings(bitRate: 500_000, sound: .live(microphone)))
            try await session.start()
            #expect(try await eventually { stream.status.sentFrames >= 90 }, "\(stream.status)")
            let final = await stream.stop()
            await session.stop()
            #expect(final.state == .stopped)
            #expect(throws: AudioError.self) { _ = try microphone.readChunk() }
            let recording = try #require(try await Self.recordings(of: server, afterPublishes: 1).first)
            let video = try await FFprobe.streams(of: recording)
            let audio = try await FFprobe.audioStream(of: recording)
            #expect(audio.codec == "aac")
            #expect(abs(audio.duration - video.duration) <= 0.25, "audio \(audio.duration) s, video \(video.duration) s")
            // The microphone's tone (RMS 0.071), not silence put in its place.
            let samples = try await FFprobe.decodedAudio(of: recording)
            let rms = (samples.reduce(0) { $0 + Double($1 * $1) } / Double(max(samples.count, 1))).squareRoot()
            #expect(rms > 0.05, "RMS \(rms) over \(samples.count) samples")
        }
    }

    @Test("A take sharing the stream's encode: its video packets are the stream's, byte for byte, from a keyframe on; its sound keeps in step")
    func sharedEncode() async throws {
        try await withNginxRTMP { server in
            try await withTemporaryFile { take in
                let stream = LiveStreamOutput()
                let movie = MovieFileOutput()
                let session = try await Self.session(stream, beside: movie)
                try await session.start()
                try await Self.push(stream, to: server.url(key: "shared"), frames: 30)
                try movie.startRecording(to: take, limits: MovieRecording.Limits(), sharingEncodeOf: stream)
                #expect(try await eventually { movie.status.frames >= 150 }, "\(movie.status)")
                let saved = try await movie.stopRecording()
                _ = await stream.stop()
                await session.stop()

                #expect(saved.validation.hasAudio && saved.validation.frames >= 150, "\(saved.validation)")
                let recording = try #require(try await Self.recordings(of: server, afterPublishes: 1).first)
                let taken = try await videoPacketHashes(of: saved.path)
                let streamed = try await videoPacketHashes(of: recording)
                let start = try #require(streamed.firstIndex(of: taken[0]), "the take's first packet is not in the stream")
                #expect(start >= 30 && Array(streamed[start..<min(start + taken.count, streamed.count)]) == taken,
                        "the take's \(taken.count) packets against the stream's \(streamed.count) from \(start)")
                let firstFrame = try await runTool("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v:0", "-read_intervals", "%+#1",
                                                                   "-show_entries", "frame=key_frame", "-of", "csv=p=0", saved.path])
                #expect(String(decoding: firstFrame.output, as: UTF8.self).hasPrefix("1"))
                let marks = try await SyncMarkReading(path: saved.path)
                #expect(marks.offsets.count >= 4, "flashes at \(marks.flashes), clicks at \(marks.clicks)")
                for (flash, offset) in marks.offsets {
                    #expect(offset <= 1.0 / 30, "the click nearest the flash frame at \(flash) s is \(offset) s from it")
                }
            }
        }
    }

    @Test("Sharing the encode of a stream that is not running is refused, and the output can record again")
    func sharedEncodeWithoutAStream() async throws {
        try await withTemporaryFile { take in
            let movie = MovieFileOutput()
            let error = #expect(throws: MovieError.self) {
                try movie.startRecording(to: take, limits: MovieRecording.Limits(), sharingEncodeOf: LiveStreamOutput())
            }
            #expect(error?.message.contains("no live stream runs") == true, "\(String(describing: error))")
            #expect(!movie.status.isRecording)
            try movie.startRecording(to: take, limits: MovieRecording.Limits())
            #expect(movie.status.isRecording)
        }
    }

    /// The longest a take beside a stream may go without a frame: a few frames dropped under a
    /// loaded machine, far below the 5 s outage a take that waited on the stream would show.
    static let takeGapBound = 0.25
}
