/// How an `ImagePipeline` takes the sensor's noise out of the frames it develops, before the
/// render gain lifts it into view.
public enum Denoising: String, Sendable, CaseIterable {
    /// None: the developed frame as the sensor saw it.
    case off
    /// Each frame on its own (`SpatialDenoiser`): chroma smoothed strongly, luma where no edge
    /// or texture stands above the noise. The default: every picture gets it.
    case spatial
    /// Spatial, then each pixel blended with the pipeline's previous output where the two differ
    /// by no more than the noise explains (`TemporalDenoiser`): for a stream's pipeline, which
    /// sees one frame after another.
    case temporal
}
