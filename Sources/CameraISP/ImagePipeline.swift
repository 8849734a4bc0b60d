import CameraCore

/// The image pipeline: turns a camera frame into the picture the user sees. One per stream; it
/// keeps its storage between frames, so in the steady state it allocates nothing. Each pass over
/// the pixels runs in stripes of rows on a `StripePool`, on every core.
///
/// ```
///  Frame ─► develop ─► developed: LinearImage (linear Rec. 709, 1 = the sensor's white)
///    bayer16: black, white level, WB + digital gain, clip, bilinear demosaic, colour matrix
///    bgra8, nv12, yuyv422, gray8: BT.709 → R'G'B', sRGB decode
///
///  developed ─► denoise, as `denoising` says, in place
///    .spatial: SpatialDenoiser (chroma strongly, luma edge-aware), its strength from the frame's noise
///    .temporal: spatial, then TemporalDenoiser (blended with the last output where nothing moved)
///
///  developed ─► render(RenderGain, ToneMapping) ─► PixelBuffer (bgra8, nv12, yuyv422, gray8)
///    .local: guided-filter base of log luminance through the tone curve, detail kept
///    .global: the tone curve per pixel
///
///  developed ─► renderMeteringView ─► the frame as the sensor saw it (no gain), for the meter
/// ```
///
/// The auto-exposure exposes the sensor for the highlights and says in each `RenderGain` where
/// the subject is and how far to lift it; `ToneCurve` lifts it and the shadows by that much and
/// compresses what is brighter so that the sensor's white stays just white.
public struct ImagePipeline: Sendable {
    /// The last frame `develop` produced.
    public internal(set) var developed = LinearImage()
    /// How `develop` takes the noise out: `.spatial` for single pictures, `.temporal` for a stream.
    public var denoising: Denoising {
        didSet { temporal.reset() }
    }
    private var bayer = BayerDeveloper()
    private var toneMapper = ToneMapper()
    private var spatial = SpatialDenoiser()
    private var temporal = TemporalDenoiser()
    /// The output before `developed`, for the temporal denoiser: the two swap at each frame.
    private var previous = LinearImage()
    /// Where each pass's stripes of rows run.
    private let stripes: StripePool

    /// A pipeline whose passes run on `stripes` (the process's pool unless a test asks for another).
    public init(denoising: Denoising = .spatial, stripes: StripePool = .shared) {
        self.denoising = denoising
        self.stripes = stripes
    }

    /// Develops `frame` into `developed`, then denoises it. A bayer16 frame needs `metadata.rawCalibration`.
    public mutating func develop(_ frame: Frame) throws(ISPError) {
        if denoising == .temporal { swap(&developed, &previous) }
        do {
            switch frame.buffer.format {
            case .bayer16(let pattern, let bits):
                try bayer.develop(frame.buffer, pattern: pattern, significantBits: bits, metadata: frame.metadata,
                                   stripes: stripes, into: &developed)
            case .bgra8, .nv12, .yuyv422, .gray8:
                ProcessedFrameDecoder.decode(frame.buffer, into: &developed)
            }
        } catch {
            temporal.reset()
            throw error
        }
        guard denoising != .off else { return }
        let noise = DevelopedNoise(of: frame)
        spatial.apply(&developed, noise: noise, stripes: stripes)
        if denoising == .temporal {
            temporal.apply(&developed, exposure: TemporalDenoiser.exposure(of: frame), previous: previous, noise: noise,
                           stripes: stripes)
        }
    }

    /// Renders `developed` into `output` (its size; bgra8, nv12, yuyv422 or gray8), the subject
    /// placed as `rendering` says.
    public mutating func render(_ rendering: RenderGain, toneMapping: ToneMapping = .local,
                                into output: PixelBuffer) throws(ISPError) {
        let developedSize = PixelSize(width: developed.width, height: developed.height)
        guard output.width == developed.width && output.height == developed.height else {
            throw .sizeMismatch(output: PixelSize(width: output.width, height: output.height), developed: developedSize)
        }
        toneMapper.render(developed, gain: rendering, toneMapping: toneMapping, into: try OutputEncoder(output), stripes: stripes)
    }

    /// Renders `developed` with no gain and no tone mapping, sRGB-encoded, into `output`
    /// (normally bgra8): the view the auto-exposure meters, as it meters a processed frame.
    public mutating func renderMeteringView(into output: PixelBuffer) throws(ISPError) {
        try render(.none, toneMapping: .global, into: output)
    }
}
