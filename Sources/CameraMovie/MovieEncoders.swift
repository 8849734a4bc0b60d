import CameraCore
internal import CFFmpeg

/// The H.264 encoder and, with sound, the AAC track of one recording or one live stream, on one
/// timeline: the first frame's time is the zero of both streams (one clock for audio and video).
/// Frames must come in presentation order, all of one size; each audio chunk is placed by its own
/// time (`AudioTrack`), and the audio never runs past the last frame. Packets go to `deliver` with
/// their track, valid only during the call.
final class MovieEncoders {
    /// Which stream a packet belongs to.
    enum Track { case video, audio }

    typealias Deliver = (UnsafeMutablePointer<AVPacket>, Track) throws(MovieError) -> Void

    let video: VideoEncoder
    let audio: AudioTrack?
    /// The first frame's time; nil before the first frame.
    private(set) var firstTime: MediaTime?
    private var lastPTS: Int64 = -1
    /// Frames encoded so far.
    private(set) var frames = 0

    init(video settings: VideoEncoder.Settings, audio format: MovieFileWriter.AudioFormat?) throws(MovieError) {
        guard settings.frameRate > 0 else { throw MovieError("frame rate \(settings.frameRate) — a recording needs at least 1 frame a second") }
        video = try VideoEncoder(settings)
        audio = try format.map { (format) throws(MovieError) in
            try AudioTrack(sampleRate: format.sampleRate, channelCount: format.channelCount, globalHeader: settings.globalHeader)
        }
    }

    /// Encodes `frame` (as a keyframe when `keyframe`) and the audio it reaches.
    func append(_ frame: Frame, keyframe: Bool = false, _ deliver: Deliver) throws(MovieError) {
        let first = firstTime ?? frame.presentationTime
        let elapsed = frame.presentationTime.seconds - first.seconds
        let pts = Int64((elapsed * Double(VideoEncoder.timeBase.den)).rounded())
        guard pts > lastPTS else {
            throw MovieError("frame \(frame.sequenceNumber) at \(frame.presentationTime.seconds) s is not after the frame before — "
                + "frames must come in presentation order")
        }
        if firstTime == nil {
            firstTime = first
            try audio?.start(at: first)
        }
        lastPTS = pts
        try video.encode(frame.buffer, pts: pts, keyframe: keyframe) { (packet) throws(MovieError) in try deliver(packet, .video) }
        frames += 1
        try audio?.release(upTo: audioEnd) { (packet) throws(MovieError) in try deliver(packet, .audio) }
    }

    /// Places `chunk` on the timeline and encodes the audio the video has reached; a recording
    /// started without audio refuses it.
    func append(_ chunk: AudioChunk, _ deliver: Deliver) throws(MovieError) {
        guard let audio else {
            throw MovieError("an audio chunk for a recording started without audio — start it with an audio format, or do not send audio")
        }
        try audio.append(chunk, zero: firstTime)
        guard firstTime != nil else { return }
        try audio.release(upTo: audioEnd) { (packet) throws(MovieError) in try deliver(packet, .audio) }
    }

    /// Drains both encoders.
    func finish(_ deliver: Deliver) throws(MovieError) {
        try video.finish { (packet) throws(MovieError) in try deliver(packet, .video) }
        try audio?.finish(upTo: audioEnd) { (packet) throws(MovieError) in try deliver(packet, .audio) }
    }

    /// The end of the last frame, in the video's ticks from the zero.
    var videoEnd: Int64 { frames == 0 ? 0 : lastPTS + video.frameDuration }

    /// The end of the last frame in audio sample frames.
    private var audioEnd: Int64 {
        guard let audio else { return 0 }
        return videoEnd * Int64(audio.sampleRate) / Int64(VideoEncoder.timeBase.den)
    }
}
