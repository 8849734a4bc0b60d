import CameraMovie
import PhotoLibrary

extension MovieFacts {
    /// What the library catalogues of a recording, as its read-back found it.
    public init(_ validation: MovieValidation) {
        self.init(width: validation.size.width, height: validation.size.height, duration: validation.duration,
                  frameCount: validation.frames, videoCodec: validation.videoCodec, audioCodec: validation.audioCodec)
    }

    /// The library's movie validator: a recording that reads back whole (`MovieValidation.check`),
    /// nil for one that does not, which the library then sets aside rather than catalogue.
    @Sendable public static func validate(_ path: String) -> MovieFacts? {
        (try? MovieValidation.check(path)).map(MovieFacts.init)
    }
}
