internal import CFFmpeg

/// A live stream's packets as a recording takes them up mid-stream (one encode shared by the
/// stream and a take): from the first video keyframe on, each packet's times moved so that the
/// keyframe is the recording's zero. The audio packet under way at the keyframe is kept, its
/// start before zero as an AAC encoder's priming is, so the sound starts with the picture.
///
/// The AAC encoder's packets come up to two of its frames (43 ms) behind the pictures, and a
/// recording that stops mid-stream cannot drain it: so each frame waits until the sound reaches
/// to within a frame of its end, and the frames still waiting when the take ends are left out —
/// its sound then ends with its pictures.
struct StreamExcerpt {
    private let parameters: LiveStreamParameters
    /// The keyframe's time in the video's and in the audio's ticks; nil before it.
    private var zero: (video: Int64, audio: Int64)?
    /// The last audio packet before the keyframe, which may reach past it.
    private var heldAudio: EncodedPacket?
    /// Frames (moved) waiting for the sound to reach them.
    private var waitingFrames: [EncodedPacket] = []
    /// Video frames taken so far.
    private(set) var frames = 0
    /// The end of the last frame and of the last audio packet, in their tracks' ticks from zero.
    private(set) var videoEnd: Int64 = 0
    private(set) var audioEnd: Int64 = 0

    init(_ parameters: LiveStreamParameters) {
        self.parameters = parameters
    }

    /// The packets to record now that `packet` came, moved onto the recording's timeline: none
    /// before the first keyframe; at it, the audio held before it.
    mutating func take(_ packet: EncodedPacket) -> [EncodedPacket] {
        guard let zero = zero ?? start(at: packet) else {
            if packet.track == .audio { heldAudio = packet }
            return []
        }
        var taken: [EncodedPacket] = []
        if let held = heldAudio, let moved = audio(held, zero: zero.audio) {
            taken.append(moved)
        }
        heldAudio = nil
        switch packet.track {
        case .video:
            waitingFrames.append(moved(packet, by: zero.video))
        case .audio:
            if let moved = audio(packet, zero: zero.audio) { taken.append(moved) }
        }
        return taken + framesReached()
    }

    /// Seconds from zero to `packet`'s time (0 before the first keyframe).
    func elapsed(at packet: EncodedPacket) -> Double {
        guard let zero, packet.track == .video else { return 0 }
        return seconds(packet.pts - zero.video, parameters.videoTimeBase)
    }

    /// Seconds of video and of audio taken, from zero.
    var videoDuration: Double { seconds(videoEnd, parameters.videoTimeBase) }
    var audioDuration: Double? { parameters.audioTimeBase.map { seconds(audioEnd, $0) } }

    private mutating func start(at packet: EncodedPacket) -> (video: Int64, audio: Int64)? {
        guard packet.track == .video, packet.isKeyframe else { return nil }
        let audio = parameters.audioTimeBase.map { av_rescale_q(packet.pts, parameters.videoTimeBase, $0) } ?? 0
        zero = (packet.pts, audio)
        return zero
    }

    /// An audio packet moved `zero` ticks earlier; nil when it ends before zero.
    private mutating func audio(_ packet: EncodedPacket, zero: Int64) -> EncodedPacket? {
        let moved = moved(packet, by: zero)
        guard moved.pts + moved.duration > 0 else { return nil }
        audioEnd = max(audioEnd, moved.pts + moved.duration)
        return moved
    }

    /// The waiting frames the sound has reached to within a frame of their end (all, without sound).
    private mutating func framesReached() -> [EncodedPacket] {
        let reached = waitingFrames.prefix { frame in
            guard let audioTimeBase = parameters.audioTimeBase else { return true }
            return av_rescale_q(frame.pts, parameters.videoTimeBase, audioTimeBase) <= audioEnd
        }
        waitingFrames.removeFirst(reached.count)
        for frame in reached {
            frames += 1
            videoEnd = max(videoEnd, frame.pts + frame.duration)
        }
        return Array(reached)
    }

    private func moved(_ packet: EncodedPacket, by offset: Int64) -> EncodedPacket {
        EncodedPacket(track: packet.track, bytes: packet.bytes, pts: packet.pts - offset, dts: packet.dts - offset, duration: packet.duration,
                      isKeyframe: packet.isKeyframe, time: packet.time)
    }

    private func seconds(_ ticks: Int64, _ timeBase: AVRational) -> Double {
        Double(ticks) * Double(timeBase.num) / Double(timeBase.den)
    }
}
