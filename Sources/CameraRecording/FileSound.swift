import CameraAudio
import CameraCapture
import CameraMovie

/// A `file:` source's own sound (`VideoFileCamera`), recorded and streamed in step with its
/// pictures: its `SoundTrack` pulled on the camera's timeline, starting again with each pass of a
/// looping file.
public struct FileSound: TimelineSound {
    public let path: String
    public let track: SoundTrack
    public var name: String { "the sound of \(path.split(separator: "/").last.map(String.init) ?? path)" }
    public var sampleRate: Int { track.sampleRate }
    public var channelCount: Int { track.channelCount }

    /// The sound of the video file at `path`; nil when it has none. Throws
    /// `CaptureError.deviceFailure` naming the file when its sound cannot be decoded.
    public init?(path: String) throws(CaptureError) {
        do {
            guard let track = try SoundTrack.decode(path: path) else { return nil }
            (self.path, self.track) = (path, track)
        } catch {
            throw .deviceFailure(device: "file:\(path)", detail: "\(error)")
        }
    }

    public func samples(from index: Int64, count: Int) -> [Float] {
        track.samples(from: index, count: count)
    }
}
