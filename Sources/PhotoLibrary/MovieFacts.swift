/// What a movie file holds, as the movie layer reads it back (CameraMovie validates a take with
/// libavformat; the library, below it, never opens a movie itself). `addMovie` catalogues these
/// figures, and `repair(validateMovie:)` asks for them to decide whether a file it finds plays.
public struct MovieFacts: Sendable, Hashable {
    public var width: Int
    public var height: Int
    /// Seconds, from the first frame's start to the last frame's end.
    public var duration: Double
    /// Video frames in the file.
    public var frameCount: Int
    /// The video codec's name, e.g. `h264`.
    public var videoCodec: String
    /// The audio codec's name, e.g. `aac`; nil for a take without sound.
    public var audioCodec: String?

    public init(width: Int, height: Int, duration: Double, frameCount: Int, videoCodec: String, audioCodec: String?) {
        self.width = width
        self.height = height
        self.duration = duration
        self.frameCount = frameCount
        self.videoCodec = videoCodec
        self.audioCodec = audioCodec
    }

    /// Throws `.invalidArgument` naming the first figure the catalogue cannot hold.
    func validate() throws(PhotoLibraryError) {
        guard width > 0, height > 0 else {
            throw PhotoLibraryError(.invalidArgument, "movie dimensions \(width)×\(height) are not positive — "
                + "pass the video's width and height in pixels")
        }
        guard duration.isFinite, duration >= 0, frameCount >= 0 else {
            throw PhotoLibraryError(.invalidArgument, "movie duration \(duration) s and frame count \(frameCount) "
                + "must be finite and not negative — pass what the file holds")
        }
        guard !videoCodec.isEmpty, audioCodec?.isEmpty != true else {
            throw PhotoLibraryError(.invalidArgument, "codec names \"\(videoCodec)\" and \"\(audioCodec ?? "")\" "
                + "must not be empty — pass nil for a take without sound")
        }
    }
}
