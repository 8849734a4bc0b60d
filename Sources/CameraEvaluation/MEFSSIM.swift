import CameraCore
import Foundation

/// The MEF-SSIM index (K. Ma, K. Zeng and Z. Wang, "Perceptual Quality Assessment for Multi-Exposure
/// Image Fusion", IEEE Trans. Image Processing 24(11), 3345–3356, 2015): how well one fused picture
/// keeps the local structure that the best of its source exposures shows at each place, as one number
/// in 0…1 that fusions of one bracket can be compared by without a viewer.
///
/// Section III of the paper, as its authors' code (mef_ms_ssim.m) computes it, at every 11×11 patch:
/// - each source patch xₖ splits into signal strength cₖ = ‖xₖ − μₖ‖, structure sₖ = (xₖ − μₖ)/cₖ and
///   mean μₖ, under a box window (the code adds 0.001 to cₖ against division by zero);
/// - the desired patch x̂ = ĉ·ŝ: the strongest source's strength ĉ = maxₖ cₖ, and the structure ŝ the
///   direction of Σₖ wₖsₖ with wₖ = (cₖ/11)^p (+ 2⁻⁵², the code's guard) — the exponent p = tan(πR/2),
///   capped at 10, rising with the sources' consistency R = ‖Σₖ(xₖ − μₖ)‖ / Σₖ cₖ, so consistent
///   structures pool and conflicting ones defer to the strongest;
/// - the comparison S = (2σ_x̂y + C)/(σ²_x̂ + σ²_y + C) with the fused patch y, its moments
///   Gaussian-weighted (11×11, σ 1.5), C = (0.03·255)²; no luminance term: MEF has no reference mean.
/// Each scale's score is the mean S over the patches inside the image; the index is the product of
/// three scales' scores, a factor of 2 apart (2×2 means), to the powers 0.0448, 0.2856, 0.3001
/// normalised to sum to 1 (multi-scale SSIM's first three weights). A scale whose mean is negative
/// (a fusion that inverts the structure) counts as 0, where the code's fractional power turns complex.
///
/// Inputs are luminance in 8-bit code values, 0…255 (the constant C assumes that range); a colour
/// image reduces to MATLAB's `rgb2gray` of its 8-bit sRGB values, rounded, as the authors' demo does.
public enum MEFSSIM {
    /// A fused picture's MEF-SSIM and its scales'.
    public struct Score: Sendable, Equatable, CustomStringConvertible {
        /// The index, 0…1: higher is better.
        public let quality: Double
        /// Each scale's mean local score, finest first.
        public let scales: [Double]

        public var description: String {
            String(format: "MEF-SSIM %.4f (scales %@)", quality, scales.map { String(format: "%.4f", $0) }.joined(separator: ", "))
        }
    }

    /// The scales' weights, finest first: multi-scale SSIM's first three (0.0448, 0.2856, 0.3001), normalised.
    public static let scaleWeights: [Double] = {
        let weights = [0.0448, 0.2856, 0.3001]
        return weights.map { $0 / weights.reduce(0, +) }
    }()

    /// The smallest side that keeps a whole 11×11 patch at the coarsest scale (the code's check).
    public static let minimumSide = LuminancePlane.windowSide << (scaleWeights.count - 1)

    /// C = (K·L)², K = 0.03, L = 255: keeps S finite where both patches are flat.
    static let stabilizer = (0.03 * 255) * (0.03 * 255)
    /// Added to every signal strength cₖ (the code's guard against flat patches).
    static let strengthFloor = 0.001
    /// The cap on the exponent p: beyond it the pooling already follows the strongest source.
    static let maximumExponent = 10.0

    /// The MEF-SSIM of `fused` against the exposures `sources` it was made from: luminance planes of
    /// one size, values 0…255.
    public static func score(sources: [LuminancePlane], fused: LuminancePlane) throws(EvaluationError) -> Score {
        try validate(sources: sources, fused: fused)
        var planes = sources + [fused]
        var scales = [Double]()
        for scale in scaleWeights.indices {
            if scale > 0 { planes = planes.map { $0.halved() } }
            scales.append(meanLocalQuality(WindowMoments(planes: planes)))
        }
        let quality = zip(scales, scaleWeights).reduce(1.0) { $0 * pow(max($1.0, 0), $1.1) }
        return Score(quality: quality, scales: scales)
    }

    /// The MEF-SSIM of 8-bit colour (or grey) images, each reduced by `luminance(of:)`.
    public static func score(sources: [PixelBuffer], fused: PixelBuffer) throws(EvaluationError) -> Score {
        try score(sources: sources.map(luminance(of:)), fused: luminance(of: fused))
    }

    /// An image's luminance as MEF-SSIM's authors take it: MATLAB's `rgb2gray` (Rec. 601 weights on the
    /// 8-bit sRGB code values, not linear light) rounded to whole code values.
    public static func luminance(of image: PixelBuffer) -> LuminancePlane {
        let rgb = image.rgb8()
        let values = (0..<(image.width * image.height)).map { i -> Double in
            let red = 0.298936021293775 * Double(rgb[3 * i]), green = 0.587043074451121 * Double(rgb[3 * i + 1])
            let blue = 0.114020904255103 * Double(rgb[3 * i + 2])
            return (red + green + blue).rounded()
        }
        return LuminancePlane(width: image.width, height: image.height, values: values)
    }

    /// Throws unless there are two or more sources, all at the fused image's size, large enough for
    /// the three scales, with values 0…255.
    private static func validate(sources: [LuminancePlane], fused: LuminancePlane) throws(EvaluationError) {
        guard sources.count >= 2 else {
            throw .invalidInput("MEF-SSIM: \(sources.count) source image(s) — score a fusion against the two or more exposures it was made from")
        }
        for (index, source) in sources.enumerated() where source.width != fused.width || source.height != fused.height {
            throw .invalidInput("MEF-SSIM: source \(index + 1) is \(source.width)x\(source.height) but the fused image "
                + "\(fused.width)x\(fused.height) — give the sources and the fused image at one size")
        }
        guard min(fused.width, fused.height) >= minimumSide else {
            throw .invalidInput("MEF-SSIM: a \(fused.width)x\(fused.height) image is too small for its three scales — "
                + "score images of at least \(minimumSide)x\(minimumSide)")
        }
        for (name, plane) in zip((1...sources.count).map { "source \($0)" } + ["the fused image"], sources + [fused]) {
            if let outside = plane.values.first(where: { !(0...255).contains($0) }) {
                throw .invalidInput("MEF-SSIM: \(name) has the value \(outside), outside 0…255 — give luminance in 8-bit code values")
            }
        }
    }

    /// The mean local score S over every patch of one scale; the planes are the sources, then the fused
    /// image. Rows are split into bands scored in parallel.
    static func meanLocalQuality(_ moments: WindowMoments) -> Double {
        let bands = max(1, min(ProcessInfo.processInfo.activeProcessorCount, moments.outHeight / 32))
        let sums = Locked([Double](repeating: 0, count: bands))
        StripePool.shared.run(stripes: bands) { band in
            let rows = (band * moments.outHeight / bands)..<((band + 1) * moments.outHeight / bands)
            let sum = bandQuality(moments, rows: rows)
            sums.withLock { $0[band] = sum }
        }
        return sums.withLock { $0.reduce(0, +) } / Double(moments.outWidth * moments.outHeight)
    }

    /// The sum of S over the patches whose top rows are `rows`.
    private static func bandQuality(_ moments: WindowMoments, rows: Range<Int>) -> Double {
        let sources = moments.planes.count - 1, fused = sources, stride = moments.outWidth
        let patchSize = Double(LuminancePlane.windowSide * LuminancePlane.windowSide)
        // Var_G(r) ≤ max(G)·‖r‖² and |σ_ry| ≤ σ_r·σ_y hold exactly; moments taken as E[xy] − E[x]E[y]
        // can break them by rounding where a patch is flat, which a near-zero ‖r‖ would then magnify.
        let largestWeight = LuminancePlane.gaussian[LuminancePlane.windowSide / 2] * LuminancePlane.gaussian[LuminancePlane.windowSide / 2]
        let pairs = (0..<sources).flatMap { j in (0..<sources).map { k in moments.pairMoment(j, k) * stride } }
        let withFused = (0..<sources).map { moments.pairMoment($0, fused) * stride }
        let fusedSquare = moments.pairMoment(fused, fused) * stride
        var sum = 0.0
        // Per-patch scratch and index tables as pointers: the loop below runs once per patch.
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * sources) { scratch in
            let strength = scratch.baseAddress!, weight = strength + sources
            pairs.withUnsafeBufferPointer { pairs in
                withFused.withUnsafeBufferPointer { withFused in
                    moments.forEachRow(in: rows) { _, row in
                        let box = row.box, gaussian = row.gaussian
                        for x in 0..<stride {
                            // Box: each source's strength cₖ, and the consistency R of their mean-removed patches.
                            var norms = 0.0, largest = 0.0, sumMean = 0.0, sumSquare = 0.0
                            for k in 0..<sources {
                                let mean = box[k * stride + x]
                                let norm = (max(patchSize * (box[pairs[k * sources + k] + x] - mean * mean), 0)).squareRoot()
                                strength[k] = norm + strengthFloor
                                norms += norm
                                largest = max(largest, strength[k])
                                sumMean += mean
                                for j in 0..<sources { sumSquare += box[pairs[k * sources + j] + x] }
                            }
                            let together = (max(patchSize * (sumSquare - sumMean * sumMean), 0)).squareRoot()
                            let consistency = min((together + .ulpOfOne) / (norms + .ulpOfOne), 1 - .ulpOfOne)
                            let exponent = min(tan(Double.pi / 2 * consistency), maximumExponent)
                            var totalWeight = 0.0
                            for k in 0..<sources {
                                weight[k] = pow(strength[k] / Double(LuminancePlane.windowSide), exponent) + .ulpOfOne
                                totalWeight += weight[k]
                            }
                            // The desired patch r = ĉ · Σₖ aₖ(xₖ − μₖ) / ‖Σₖ aₖ(xₖ − μₖ)‖, aₖ = wₖ / (Σw · cₖ).
                            var normSquare = 0.0, variance = 0.0, covariance = 0.0
                            for k in 0..<sources {
                                let a = weight[k] / (totalWeight * strength[k])
                                let meanK = box[k * stride + x], gaussianK = gaussian[k * stride + x]
                                for j in 0..<sources {
                                    let b = weight[j] / (totalWeight * strength[j])
                                    let pair = pairs[k * sources + j] + x
                                    normSquare += a * b * (box[pair] - meanK * box[j * stride + x])
                                    variance += a * b * (gaussian[pair] - gaussianK * gaussian[j * stride + x])
                                }
                                covariance += a * (gaussian[withFused[k] + x] - gaussianK * gaussian[fused * stride + x])
                            }
                            normSquare *= patchSize
                            let fusedMean = gaussian[fused * stride + x]
                            let fusedVariance = max(gaussian[fusedSquare + x] - fusedMean * fusedMean, 0)
                            var desiredVariance = 0.0, crossCovariance = 0.0
                            if normSquare > 0 {
                                let scale = largest / normSquare.squareRoot()
                                desiredVariance = min(max(scale * scale * variance, 0), largestWeight * largest * largest)
                                let bound = (desiredVariance * fusedVariance).squareRoot()
                                crossCovariance = min(max(scale * covariance, -bound), bound)
                            }
                            sum += (2 * crossCovariance + stabilizer) / (desiredVariance + fusedVariance + stabilizer)
                        }
                    }
                }
            }
        }
        return sum
    }
}
