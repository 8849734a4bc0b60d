import CameraAudio
import CameraCapture
import CameraCore
import CameraMovie
import CameraSimulated
import CameraTestSupport
import Foundation
import Testing

/// Takes with sound from the simulated microphone, on a virtual clock: before each frame, the
/// audio up to that frame's time is pulled from the microphone (`samples(from:count:)`), as a
/// session would have captured it by then. The peers read the result: ffprobe the streams,
/// ffmpeg decodes them, and the clicks the microphone makes at every whole second are found in
/// the decoded sound.
@Suite("Movie recording with sound: AAC beside H.264, in step")
struct AudioRecordingTests {
    /// The microphone's samples as chunks of at most 1 024, handed out up to each time asked for.
    struct VirtualMicrophone {
        let microphone = SimulatedMicrophone(seed: 11, clicks: true)
        var pulled: Int64 = 0
        /// Sample indices whose chunks are withheld, as an overrun loses them.
        var lost: Range<Int64> = 0..<0
        /// Samples of the chunks withheld so far.
        var withheld: Int64 = 0

        mutating func chunks(upTo time: MediaTime) -> [AudioChunk] {
            let end = time.converted(toTimescale: 48_000).value
            var chunks: [AudioChunk] = []
            while pulled < end {
                let count = Int(min(1_024, end - pulled))
                if lost.contains(pulled) {
                    withheld += Int64(count)
                } else {
                    chunks.append(AudioChunk(samples: microphone.samples(from: pulled, count: count), sampleRate: 48_000, channelCount: 1,
                                             presentationTime: MediaTime(value: pulled, timescale: 48_000)))
                }
                pulled += Int64(count)
            }
            return chunks
        }
    }

    /// Records `frames` frames, skipping the camera's first `skipped` (whose audio then lies before
    /// the file's zero); the audio follows the frames up to the end of the last one.
    static func take(frames: Int, skipping skipped: Int = 0, losing lost: Range<Int64> = 0..<0, in folder: URL) async throws
        -> (saved: MovieRecording.Saved, zero: Double) {
        let camera = try recordingCamera(.backlitPortrait)
        let recording = try MovieRecording(path: folder.appendingPathComponent("take.mp4").path, size: recordingSize, frameRate: 30,
                                           limits: try MovieRecording.Limits(), audio: MovieFileWriter.AudioFormat())
        var microphone = VirtualMicrophone(lost: lost)
        var zero: Double?
        var frame = try await camera.nextFrame()
        for _ in 0..<skipped { frame = try await camera.nextFrame() }
        for _ in 0..<frames {
            for chunk in microphone.chunks(upTo: frame.presentationTime) { try recording.append(chunk) }
            zero = zero ?? frame.presentationTime.seconds
            #expect(try recording.append(frame) == nil)
            frame = try await camera.nextFrame()
        }
        for chunk in microphone.chunks(upTo: frame.presentationTime) { try recording.append(chunk) }
        return (try recording.finish(), try #require(zero))
    }

    /// Where each click starts on the file's timeline, in seconds: found in the decoded audio by
    /// threshold, placed from the audio stream's start (its first packet's time).
    static func clicks(in path: String) async throws -> [Double] {
        let start = try await FFprobe.audioStream(of: path).start
        var onsets: [Double] = [], lastLoud = -Int.max / 2
        for (index, sample) in try await FFprobe.decodedAudio(of: path).enumerated() where abs(sample) > 0.5 {
            if index - lastLoud > 4_800 { onsets.append(start + Double(index) / 48_000) }
            lastLoud = index
        }
        return onsets
    }

    @Test("3 s with sound: H.264 + AAC, audio as long as the video within a frame, decodes cleanly, clicks within a frame of each second",
          arguments: [0, 15])
    func recordsInStep(skipped: Int) async throws {
        try await withScratchDirectory { folder in
            let (saved, zero) = try await Self.take(frames: 90, skipping: skipped, in: folder)
            #expect(saved.validation.frames == 90 && saved.validation.hasAudio)
            let audioDuration = try #require(saved.validation.audioDuration)
            #expect(abs(audioDuration - saved.validation.duration) <= 1.0 / 30, "audio \(audioDuration) s, video \(saved.validation.duration) s")
            let video = try await FFprobe.streams(of: saved.path)
            let audio = try await FFprobe.audioStream(of: saved.path)
            #expect(video.codec == "h264" && video.frames == 90)
            #expect(audio.codec == "aac" && audio.sampleRate == 48_000 && audio.channels == 1)
            #expect(abs(audio.start + audio.duration - video.duration) <= 1.0 / 30,
                    "ffprobe: audio from \(audio.start) s for \(audio.duration) s, video \(video.duration) s")
            #expect(try await FFprobe.decodeErrors(of: saved.path) == "")
            #expect(abs(video.start) < 1e-6, "the video starts at \(video.start) s")
            let expected = [1.0, 2.0, 3.0].map { $0 - zero }.filter { $0 > 0 && $0 < 3 - 0.1 }
            let found = try await Self.clicks(in: saved.path)
            try #require(found.count == expected.count, "clicks at \(found) s, expected at \(expected) s")
            for (click, second) in zip(found, expected) {
                #expect(abs(click - second) <= 1.0 / 30, "click at \(click) s, the second at \(second) s of the file")
            }
        }
    }

    @Test("Audio lost in an overrun becomes silence of its length: the clicks after it stay in place")
    func aGapKeepsSync() async throws {
        try await withScratchDirectory { folder in
            let lost = Int64(20_480)..<Int64(30_720)
            let (saved, _) = try await Self.take(frames: 60, losing: lost, in: folder)
            let found = try await Self.clicks(in: saved.path)
            try #require(found.count == 1, "clicks at \(found) s")
            #expect(abs(found[0] - 1) <= 1.0 / 30, "click at \(found[0]) s")
            let decoded = try await FFprobe.decodedAudio(of: saved.path)
            let gap = Int(lost.lowerBound) + 1_024 + 480..<Int(lost.upperBound) + 1_024 - 480
            let quiet = decoded[gap].map { abs($0) }.max() ?? 1
            #expect(quiet < 0.01, "the gap decodes to silence (peak \(quiet))")
        }
    }

    @Test("The writer counts what it did to the audio: the half second before the first frame dropped, a lost chunk filled")
    func theWriterCountsDropsAndGaps() async throws {
        try await withTemporaryFile { path in
            let camera = try recordingCamera(.grayCard)
            let writer = try MovieFileWriter(path: path, size: recordingSize, frameRate: 30, audio: MovieFileWriter.AudioFormat())
            var microphone = VirtualMicrophone(lost: 30_720..<40_960)
            var frame = try await camera.nextFrame()
            for _ in 0..<15 { frame = try await camera.nextFrame() }
            for _ in 0..<30 {
                for chunk in microphone.chunks(upTo: frame.presentationTime) { try writer.append(chunk) }
                try writer.append(frame)
                frame = try await camera.nextFrame()
            }
            for chunk in microphone.chunks(upTo: frame.presentationTime) { try writer.append(chunk) }
            let summary = try writer.finish()
            #expect(writer.audioDroppedFrames == 24_000)
            #expect(microphone.withheld > 9_000)
            #expect(writer.audioSilenceFrames == microphone.withheld)
            #expect(summary.audioDuration == 1 && summary.duration == 1)
        }
    }

    @Test("Cut after its first fragment, as a kill would leave it, the file still decodes both streams up to the cut")
    func aCutFileKeepsBothStreams() async throws {
        try await withScratchDirectory { folder in
            let (saved, _) = try await Self.take(frames: 90, in: folder)
            let data = try Data(contentsOf: URL(fileURLWithPath: saved.path))
            let second = try #require(data.ranges(of: Data("moof".utf8)).dropFirst().first)
            let cut = folder.appendingPathComponent("cut.mp4").path
            try data.prefix(second.lowerBound - 4).write(to: URL(fileURLWithPath: cut))
            #expect(try await FFprobe.decodeErrors(of: cut) == "")
            let video = try await FFprobe.streams(of: cut)
            let audio = try await FFprobe.audioStream(of: cut)
            #expect(video.frames >= 1 && video.frames < 90, "\(video.frames) frames left")
            #expect(audio.packets > 0 && abs(audio.start + audio.duration - video.duration) <= 1.0 / 30,
                    "audio from \(audio.start) s for \(audio.duration) s, video \(video.duration) s")
            let validation = try MovieValidation.check(cut)
            #expect(validation.frames == video.frames && validation.hasAudio)
        }
    }

    @Test("Bad audio input: a chunk for a take without sound, a chunk of another format — each named, the take unharmed")
    func badAudioIsAClearError() async throws {
        try await withScratchDirectory { folder in
            let chunk = AudioChunk(samples: [0, 0], sampleRate: 44_100, channelCount: 2, presentationTime: .zero)
            let silent = try MovieRecording(path: folder.appendingPathComponent("a.mp4").path, size: recordingSize, frameRate: 30,
                                            limits: try MovieRecording.Limits())
            let none = #expect(throws: MovieError.self) { try silent.append(chunk) }
            #expect(none?.message.hasPrefix("an audio chunk for a recording started without audio — ") == true)
            let sound = try MovieRecording(path: folder.appendingPathComponent("b.mp4").path, size: recordingSize, frameRate: 30,
                                           limits: try MovieRecording.Limits(), audio: MovieFileWriter.AudioFormat())
            #expect(throws: MovieError("an audio chunk of 2 channels at 44100 Hz in a recording of 1 at 48000 Hz — "
                + "start the recording with the microphone's format")) { try sound.append(chunk) }
            let camera = try recordingCamera(.grayCard)
            for _ in 0..<30 { _ = try sound.append(try await camera.nextFrame()) }
            var microphone = VirtualMicrophone()
            for piece in microphone.chunks(upTo: MediaTime(value: 1, timescale: 1)) { try sound.append(piece) }
            #expect(try sound.finish().validation.frames == 30)
        }
    }
}
