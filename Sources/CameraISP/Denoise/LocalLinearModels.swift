/// The denoiser's models, one per block: in each block's neighbourhood, luma is its local mean
/// plus the part of its deviation that stands above the noise, and each colour difference,
/// relative to luma, is a linear function of log luma (a guided filter's model, guided by luma).
///
/// Colour is relative (u = (B − Y)/(Y + k), v = (R − Y)/(Y + k), `k` the noise floor) and its
/// guide logarithmic (L = log2(Y + k)) so that across an edge of high contrast both sides weigh
/// alike: in linear terms the bright side would set the fit and its error would land, as a strong
/// tint, on the dark side. Luma stays linear, so that its mean is kept exactly.
///
/// From the blocks' means of Y, Y², L, L², u, v, L·u and L·v, over each block's 3×3-block window:
/// - luma: `a = s / (s + lumaStrength·σ²)` with `s = max(var Y − σ², 0)` the variance the noise
///   does not explain (a local Wiener filter), `b = (1 − a)·mean Y`; flat areas take their mean,
///   edges and texture well above the noise keep their pixels;
/// - chroma: `a = cov(L, u) / (var L + chromaStrength·σ²_L)`, `b = mean u − a·mean L`; colour
///   changes only where luma has an edge far above the noise, and is the window's mean elsewhere;
/// then the coefficients are averaged over the same window, as the guided filter does, so the
/// picture made from them has no block edges. σ² is the luma noise at the window's mean, σ²_L
/// the same in log luma.
struct LocalLinearModels {
    /// Planes of `statistics`, each block's means.
    enum Statistic: Int, CaseIterable { case luma, lumaSquared, log, logSquared, blue, red, logBlue, logRed }
    /// Planes of `models`: `Y' = lumaSlope·Y + lumaOffset`, `u' = blueSlope·L' + blueOffset`, ….
    enum Coefficient: Int, CaseIterable { case lumaSlope, lumaOffset, blueSlope, blueOffset, redSlope, redOffset }

    /// Noise variances a luma deviation must exceed to be kept: 1 is the Wiener filter's balance.
    static let lumaStrength: Float = 1
    /// How far above the noise a luma edge must stand for colour to change across it.
    static let chromaStrength: Float = 8

    /// Filled by the caller: each block's means.
    var statistics = BlockGrid()
    /// The result: each block's averaged coefficients.
    private(set) var models = BlockGrid()
    private var windows = BlockGrid()
    private var box = BlockBox()

    /// Sizes the grids for `width`×`height` blocks.
    mutating func resize(width: Int, height: Int) {
        statistics.resize(width: width, height: height, planes: Statistic.allCases.count)
        windows.resize(width: width, height: height, planes: Statistic.allCases.count)
        // As many planes as `windows`: the two swap at each fit.
        models.resize(width: width, height: height, planes: Statistic.allCases.count)
    }

    /// Computes `models` from `statistics` for a frame whose noise is `noise`.
    mutating func fit(noise: DevelopedNoise) {
        for plane in Statistic.allCases { box.apply(statistics, plane: plane.rawValue, into: &windows) }
        let (width, height) = (windows.width, windows.height)
        let grid = windows.layout
        windows.values.withUnsafeMutableBufferPointer { windows in
            models.values.withUnsafeMutableBufferPointer { models in
                let w = windows.baseAddress!, m = models.baseAddress!
                for y in 0..<height {
                    func input(_ s: Statistic) -> UnsafeMutablePointer<Float> { w + grid.row(s.rawValue, y) }
                    func output(_ c: Coefficient) -> UnsafeMutablePointer<Float> { m + grid.row(c.rawValue, y) }
                    Self.fitRow(luma: input(.luma), lumaSquared: input(.lumaSquared), log: input(.log), logSquared: input(.logSquared),
                                blue: input(.blue), red: input(.red), logBlue: input(.logBlue), logRed: input(.logRed),
                                count: width, noise: noise,
                                lumaSlope: output(.lumaSlope), lumaOffset: output(.lumaOffset), blueSlope: output(.blueSlope),
                                blueOffset: output(.blueOffset), redSlope: output(.redSlope), redOffset: output(.redOffset))
                }
            }
        }
        // The coefficients' window means, by way of `windows` (the statistics are no longer needed).
        for plane in Coefficient.allCases { box.apply(models, plane: plane.rawValue, into: &windows) }
        swap(&models, &windows)
    }

    /// One row of blocks' coefficients from their windows' means, eight at a time.
    private static func fitRow(luma: UnsafeMutablePointer<Float>, lumaSquared: UnsafeMutablePointer<Float>,
                               log: UnsafeMutablePointer<Float>, logSquared: UnsafeMutablePointer<Float>,
                               blue: UnsafeMutablePointer<Float>, red: UnsafeMutablePointer<Float>,
                               logBlue: UnsafeMutablePointer<Float>, logRed: UnsafeMutablePointer<Float>, count: Int,
                               noise: DevelopedNoise,
                               lumaSlope: UnsafeMutablePointer<Float>, lumaOffset: UnsafeMutablePointer<Float>,
                               blueSlope: UnsafeMutablePointer<Float>, blueOffset: UnsafeMutablePointer<Float>,
                               redSlope: UnsafeMutablePointer<Float>, redOffset: UnsafeMutablePointer<Float>) {
        for x in Swift.stride(from: 0, to: count, by: 8) {
            let meanY = Lanes.load(luma + x)
            let varianceY = FastMath.nonNegative(Lanes.load(lumaSquared + x) - meanY * meanY)
            let noiseVariance = noise.variance(meanY)
            let signal = FastMath.nonNegative(varianceY - noiseVariance)
            let slopeY = signal / (signal + lumaStrength * noiseVariance)
            Lanes.store(slopeY, lumaSlope + x)
            Lanes.store((1 - slopeY) * meanY, lumaOffset + x)
            // d log2(Y + k)/dY = 1 / ((Y + k)·ln 2) carries the noise into log luma.
            let logScale = 1 / ((meanY + noise.floor) * 0.693_147_18)
            let meanL = Lanes.load(log + x)
            let varianceL = FastMath.nonNegative(Lanes.load(logSquared + x) - meanL * meanL)
            let denominator = varianceL + chromaStrength * noiseVariance * logScale * logScale
            let meanB = Lanes.load(blue + x), meanR = Lanes.load(red + x)
            let slopeB = (Lanes.load(logBlue + x) - meanL * meanB) / denominator
            let slopeR = (Lanes.load(logRed + x) - meanL * meanR) / denominator
            Lanes.store(slopeB, blueSlope + x)
            Lanes.store(meanB - slopeB * meanL, blueOffset + x)
            Lanes.store(slopeR, redSlope + x)
            Lanes.store(meanR - slopeR * meanL, redOffset + x)
        }
    }
}
