/// How the pipeline applies its tone curve (`ToneCurve`): what `--hdr on` and `--hdr off` choose.
public enum ToneMapping: String, Sendable, Hashable, CaseIterable {
    /// The curve on an edge-aware base of log luminance, the detail above it kept
    /// (`GuidedBaseFilter`): shadows and the subject lifted, highlights compressed, local contrast
    /// intact, no halos at strong edges. The default (`--hdr on`).
    case local
    /// The curve on each pixel's own luminance: the same levels for large areas, flatter detail
    /// in the highlights (`--hdr off`).
    case global
}
