import CameraCore

/// A DNG's colour tags for a `RawCalibration` and the white-balance gains applied to the frame.
///
/// The calibration maps white-balanced camera RGB to linear Rec. 709, so raw camera RGB reaches
/// CIE XYZ (D65) through `Rec709→XYZ · M · diag(gains)`. ColorMatrix1 is the inverse of that, scaled as
/// the DNG spec asks: the calibration illuminant's white (D65, Y = 1) maps to a camera neutral whose
/// largest component is 1. That neutral is then 1/gains, the same as AsShotNeutral: one matrix
/// cannot describe two illuminants, so the file says the scene was lit as the camera balanced it,
/// and a DNG reader renders the colours our own pipeline renders.
struct DNGColor {
    /// XYZ (D65) → camera RGB, row-major 3×3 (ColorMatrix1, with CalibrationIlluminant1 D65).
    let colorMatrix1: [Double]
    /// The camera RGB of a neutral in this shot, green 1 (AsShotNeutral).
    let asShotNeutral: [Double]

    /// Linear Rec. 709 (sRGB primaries, D65) → CIE XYZ, IEC 61966-2-1.
    static let rec709ToXYZ: [Double] = [
        0.412_456_4, 0.357_576_1, 0.180_437_5,
        0.212_672_9, 0.715_152_2, 0.072_175_0,
        0.019_333_9, 0.119_192_0, 0.950_304_1,
    ]

    init(calibration: RawCalibration, gains: WhiteBalanceGains) throws(CodecError) {
        let gainValues = [gains.red, gains.green, gains.blue]
        guard gainValues.allSatisfy({ $0.isFinite && $0 > 0 }) else {
            throw CodecError(.invalidSetting, "the white-balance gains \(gainValues) must all be positive"
                + " — pass the gains the frame was balanced with (FrameMetadata.whiteBalanceGains)")
        }
        let matrix = calibration.colorMatrix
        guard matrix.allSatisfy(\.isFinite) else {
            throw CodecError(.invalidSetting, "the colour matrix \(matrix) holds a value that is not a number"
                + " — fix the calibration")
        }
        for row in 0..<3 {
            let sum = matrix[row * 3..<row * 3 + 3].reduce(0, +)
            guard abs(sum - 1) <= 1e-3 else {
                throw CodecError(.invalidSetting, "row \(row + 1) of the colour matrix \(matrix) sums to \(sum), not 1"
                    + " — a RawCalibration's camera → Rec. 709 matrix keeps white white; fix the calibration")
            }
        }
        let diagonalGains = [gains.red, 0, 0, 0, gains.green, 0, 0, 0, gains.blue]
        let cameraToXYZ = Self.product(Self.product(Self.rec709ToXYZ, matrix), diagonalGains)
        guard let xyzToCamera = Self.inverse(cameraToXYZ) else {
            throw CodecError(.invalidSetting, "the colour matrix \(matrix) cannot be inverted (its determinant is 0)"
                + " — a camera → Rec. 709 matrix must keep the three channels apart; fix the calibration")
        }
        let whiteNeutral = Self.apply(xyzToCamera, Self.apply(Self.rec709ToXYZ, [1, 1, 1]))
        let scale = whiteNeutral.max()!
        colorMatrix1 = xyzToCamera.map { $0 / scale }
        asShotNeutral = gainValues.map { gains.green / $0 }
    }

    private static func product(_ a: [Double], _ b: [Double]) -> [Double] {
        (0..<9).map { index in
            let (row, column) = (index / 3, index % 3)
            return (0..<3).reduce(0) { $0 + a[row * 3 + $1] * b[$1 * 3 + column] }
        }
    }

    private static func apply(_ m: [Double], _ v: [Double]) -> [Double] {
        (0..<3).map { row in (0..<3).reduce(0) { $0 + m[row * 3 + $1] * v[$1] } }
    }

    /// The inverse by cofactors, or nil when the matrix is singular.
    private static func inverse(_ m: [Double]) -> [Double]? {
        let cofactors: [Double] = [
            m[4] * m[8] - m[5] * m[7], m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
            m[5] * m[6] - m[3] * m[8], m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
            m[3] * m[7] - m[4] * m[6], m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3],
        ]
        let determinant = m[0] * cofactors[0] + m[1] * cofactors[3] + m[2] * cofactors[6]
        guard determinant.isFinite, abs(determinant) > 1e-12 else { return nil }
        return cofactors.map { $0 / determinant }
    }
}
