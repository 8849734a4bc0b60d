import CameraAudio
import CameraCapture
import CameraCodecs
import CameraCore
import CameraFilters
import CameraMovie
import Foundation

extension MovieFileOutput {
    /// One take: its recording is made from the first frame, and used only on the output's serial
    /// encoding worker — the confinement that makes it safe to share with the capture loop.
    final class Take: @unchecked Sendable {
        let path: String
        let limits: MovieRecording.Limits
        private let encoder: String
        let sound: MovieSound?
        /// Where a live microphone's chunks go on the camera's timeline; nil without one.
        private var live: LiveSoundTimeline?
        /// The filters, on a copy of each frame that the take owns; nil records frames as they come.
        private let filters: FilteredCopy?
        /// The wall-clock time of the first frame: a frame's burned-in time is this plus its offset from it.
        private var startDate: Date?
        /// The last frame as filtered, for its thumbnail (nil without filters: a pooled frame is not kept).
        private var recorded: PixelBuffer?
        /// The simulated microphone's samples to record, frame by frame; nil without it.
        private var simulatedSound: SimulatedSoundCursor?
        private(set) var recording: MovieRecording?
        private var span: (start: Double, end: Double)?
        private var hasFirstThumbnail = false, hasLateThumbnail = false
        /// The live stream whose packets the take records, when it shares the stream's encode.
        private var tap: LiveStreamOutput.PacketTapToken?
        var isFinished = false

        init(path: String, limits: MovieRecording.Limits, encoder: String, sound: MovieSound?, live: LiveSoundTimeline?,
             filters: FilterChain?) {
            (self.path, self.limits, self.encoder, self.sound, self.live) = (path, limits, encoder, sound, live)
            self.filters = filters.flatMap { $0.isEmpty ? nil : FilteredCopy($0) }
            if case .simulated(let microphone) = sound { simulatedSound = SimulatedSoundCursor(microphone) }
        }

        /// Whether the take records a live stream's packets rather than encoding its frames.
        var sharesEncode: Bool { tap != nil }

        /// Records `stream`'s packets from now on instead of encoding frames.
        func share(_ stream: LiveStreamOutput.PacketTapToken) {
            tap = stream
        }

        /// Stops taking the stream's packets.
        func stopSharing() {
            tap?.remove()
        }

        /// Records a shared stream's `packets` (described by `parameters`), or returns the limit that ends the take.
        func append(_ packets: [EncodedPacket], parameters: LiveStreamParameters) throws(MovieError) -> MovieRecording.StopReason? {
            let recording: MovieRecording
            if let existing = self.recording {
                recording = existing
            } else {
                recording = try MovieRecording(path: path, limits: limits, sharing: parameters, encoder: tap?.encoderName ?? encoder)
                self.recording = recording
            }
            return try recording.append(packets)
        }

        /// Writes `frame`, which reached the output at `received`, or returns the limit that ends the take.
        /// A take sharing a stream's encode only notes the frame's time, for its thumbnail.
        func append(_ frame: CapturedFrame, receivedAt received: ContinuousClock.Instant) throws(MovieError) -> MovieRecording.StopReason? {
            if sharesEncode {
                guard recording != nil else { return nil }
                extendSpan(to: frame)
                return nil
            }
            live?.frame(presented: frame.presentationTime.seconds, received: received)
            let recording: MovieRecording
            if let existing = self.recording {
                recording = existing
            } else {
                do {
                    try filters?.chain.check(frame.buffer.format)
                } catch {
                    throw MovieError("cannot record \(frame.buffer.format) frames with these filters: \(error)")
                }
                startDate = Date()
                let sound = self.sound.map { MovieFileWriter.AudioFormat(sampleRate: $0.sampleRate, channelCount: $0.channelCount) }
                recording = try MovieRecording(path: path, size: PixelSize(width: frame.buffer.width, height: frame.buffer.height),
                                               frameRate: max(Int((1 / frame.frameDuration.seconds).rounded()), 1), limits: limits,
                                               encoder: encoder, audio: sound)
                self.recording = recording
            }
            if let reason = try recording.append(filtered(frame)) { return reason }
            if let chunk = simulatedSound?.chunk(through: frame) { try recording.append(chunk) }
            extendSpan(to: frame)
            return nil
        }

        /// The take's span of time reaches to the end of `frame`.
        private func extendSpan(to frame: CapturedFrame) {
            let start = span?.start ?? frame.presentationTime.seconds
            span = (start, frame.presentationTime.seconds + frame.frameDuration.seconds)
        }

        /// `frame` through the filters, its time the first frame's date plus its offset from that frame.
        private func filtered(_ frame: CapturedFrame) throws(MovieError) -> Frame {
            guard let filters else { return frame.frame }
            let offset = frame.presentationTime.seconds - (span?.start ?? frame.presentationTime.seconds)
            do {
                let buffer = try filters.filter(frame.buffer, at: (startDate ?? Date()).addingTimeInterval(offset))
                recorded = buffer
                return Frame(buffer: buffer, presentationTime: frame.presentationTime, sequenceNumber: frame.sequenceNumber, metadata: frame.metadata)
            } catch {
                throw MovieError("cannot filter frame \(frame.sequenceNumber): \(error)")
            }
        }

        /// A live microphone's `chunk`, placed on the camera's timeline; dropped before the first frame.
        func appendLive(_ chunk: AudioChunk) throws(MovieError) {
            guard let recording, let placed = live?.place(chunk) else { return }
            try recording.append(placed)
        }

        /// Silence from the live sound's end (or the first frame, when none came) to the last frame's
        /// end: the microphone's last period is still being captured when the take stops, and a take
        /// is kept whole even when its microphone fell silent.
        private func closeLiveSound(in recording: MovieRecording) throws(MovieError) {
            guard let live, let sound, let span else { return }
            let rate = sound.sampleRate, channels = sound.channelCount
            let start = live.end ?? Int64((span.start * Double(rate)).rounded())
            let end = Int64((span.end * Double(rate)).rounded())
            guard end > start else { return }
            try recording.append(AudioChunk(samples: [Float](repeating: 0, count: Int(end - start) * channels), sampleRate: rate,
                                            channelCount: channels, presentationTime: MediaTime(value: start, timescale: Int32(rate))))
        }

        /// A thumbnail of `frame` when it is the take's first or the first past `thumbnailTime`, else nil.
        func thumbnail(of frame: CapturedFrame) -> [UInt8]? {
            guard recording != nil, let span else { return nil }
            let isFirst = !hasFirstThumbnail
            let isLate = !hasLateThumbnail && span.end - span.start > MovieFileOutput.thumbnailTime
            guard isFirst || isLate else { return nil }
            hasFirstThumbnail = true
            if isLate { hasLateThumbnail = true }
            return try? JPEGEncoder().encodedThumbnail(of: recorded ?? frame.buffer, fitting: MovieFileOutput.thumbnailBounds)
        }

        /// Frames, seconds (from the first frame's start to the last one's end) and bytes written so far.
        var progress: (frames: Int, duration: Double, bytes: Int64) {
            guard let recording, let span else { return (0, 0, 0) }
            return (recording.frames, span.end - span.start, recording.bytesWritten)
        }

        func finish(reason: MovieRecording.StopReason) throws(MovieError) -> MovieRecording.Saved {
            guard let recording else {
                throw MovieError("the take at \(path) ended before its first frame — nothing was recorded")
            }
            try closeLiveSound(in: recording)
            return try recording.finish(reason: reason)
        }
    }
}
