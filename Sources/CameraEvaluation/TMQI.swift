import CameraCore
import Foundation

/// The Tone-Mapped image Quality Index (H. Yeganeh and Z. Wang, "Objective Quality Assessment of
/// Tone-Mapped Images", IEEE Trans. Image Processing 22(2), 657–667, 2013): how well an 8-bit
/// rendering keeps the structure of the HDR scene it was made from, and how natural it looks, as
/// one number in 0…1 that tone curves can be compared by without a viewer.
///
/// Q = a·S^α + (1 − a)·N^β, with the paper's a = 0.8012, α = 0.3046, β = 0.7088, where S is the
/// multi-scale structural fidelity (`TMQI+StructuralFidelity`) and N the statistical naturalness
/// (`TMQI+Naturalness`). As in the authors' reference code (TMQI.m), both work on Rec. 709
/// luminance: the HDR's stretched linearly to 0…2³² − 1, the LDR's taken from its 8-bit code
/// values as they are (not linearised).
public enum TMQI {
    /// A rendering's TMQI and its two parts.
    public struct Score: Sendable, Equatable, CustomStringConvertible {
        /// Q, 0…1: higher is better.
        public let quality: Double
        /// S, 0…1: 1 when every local structure of the HDR image is visible in the rendering and
        /// no structure is added.
        public let structuralFidelity: Double
        /// N, 0…1: 1 for the mean brightness and contrast most common in natural images.
        public let naturalness: Double

        public var description: String {
            String(format: "Q %.4f (S %.4f, N %.4f)", quality, structuralFidelity, naturalness)
        }
    }

    /// a: the weight of structural fidelity in Q.
    static let structureWeight = 0.8012
    /// α: how sharply Q follows S.
    static let structureExponent = 0.3046
    /// β: how sharply Q follows N.
    static let naturalnessExponent = 0.7088

    /// The smallest side that keeps a whole 11×11 window at the fifth, coarsest scale.
    public static let minimumSide = 161

    /// The TMQI of `ldr` (any pixel format; its 8-bit RGB is read) as a rendering of `hdr` (linear
    /// radiance, same size, each side at least `minimumSide`).
    public static func score(hdr: RadianceImage, ldr: PixelBuffer) throws(EvaluationError) -> Score {
        guard hdr.width == ldr.width, hdr.height == ldr.height else {
            throw .invalidInput("TMQI: the rendering is \(ldr.width)x\(ldr.height) but the HDR image \(hdr.width)x\(hdr.height) — "
                + "score a rendering at the HDR image's size")
        }
        let rgb = ldr.rgb8()
        let ldrLuminance = (0..<(ldr.width * ldr.height)).map { i in
            rec709(Double(rgb[3 * i]), Double(rgb[3 * i + 1]), Double(rgb[3 * i + 2]))
        }
        let hdrLuminance = (0..<(hdr.width * hdr.height)).map { i in
            rec709(Double(hdr.samples[3 * i]), Double(hdr.samples[3 * i + 1]), Double(hdr.samples[3 * i + 2]))
        }
        return try score(hdrLuminance: LuminancePlane(width: hdr.width, height: hdr.height, values: hdrLuminance),
                         ldrLuminance: LuminancePlane(width: ldr.width, height: ldr.height, values: ldrLuminance))
    }

    /// The TMQI of a rendering's luminance (Rec. 709 of its 8-bit code values, 0…255) against the
    /// HDR image's (linear, any unit), both the same size.
    static func score(hdrLuminance: LuminancePlane, ldrLuminance: LuminancePlane) throws(EvaluationError) -> Score {
        guard min(hdrLuminance.width, hdrLuminance.height) >= minimumSide else {
            throw .invalidInput("TMQI: a \(hdrLuminance.width)x\(hdrLuminance.height) image is too small for its five scales — "
                + "score images of at least \(minimumSide)x\(minimumSide)")
        }
        guard let lowest = hdrLuminance.values.min(), let highest = hdrLuminance.values.max(), highest > lowest else {
            throw .invalidInput("TMQI: the HDR image has one luminance throughout, so it has no structure to keep — "
                + "score a rendering of an image with some contrast")
        }
        // TMQI.m: L_hdr = round((2^32 - 1) / (lmax - lmin)) .* (L_hdr - lmin).
        let factor = ((pow(2, 32) - 1) / (highest - lowest)).rounded()
        var hdr = hdrLuminance
        hdr.values = hdrLuminance.values.map { factor * ($0 - lowest) }
        let fidelity = structuralFidelity(hdr: hdr, ldr: ldrLuminance)
        let naturalness = naturalness(of: ldrLuminance)
        let quality = structureWeight * pow(fidelity, structureExponent)
            + (1 - structureWeight) * pow(naturalness, naturalnessExponent)
        return Score(quality: quality, structuralFidelity: fidelity, naturalness: naturalness)
    }

    /// Rec. 709 luminance (`BT709`'s weights), the Y row of the reference code's RGB → XYZ matrix.
    static func rec709(_ red: Double, _ green: Double, _ blue: Double) -> Double {
        Double(BT709.redWeight) * red + Double(BT709.greenWeight) * green + Double(BT709.blueWeight) * blue
    }
}
