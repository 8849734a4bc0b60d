import CameraCore

/// A merged bracket: one raw mosaic on the reference frame's scale, and how it was made.
///
/// The buffer is bayer16 with 16 significant bits. Its `calibration` puts the reference frame's
/// white level at `whiteLevel` (1.0) and keeps `headroom` above it, up to the shortest frame's
/// white in reference units (4.0 for a −2 EV frame against 0 EV). The black level is a pedestal of
/// 1/16 of the white, so noise below black in the shadows is kept rather than clipped at zero.
public struct MergedRaw: Sendable {
    /// The merged mosaic: bayer16 in the reference's order, 16 significant bits.
    public let buffer: PixelBuffer
    /// Black = the pedestal, white = the reference's white level; the reference's colour matrix.
    public let calibration: RawCalibration
    /// The brightest value the buffer holds, in units of the reference's white.
    public let headroom: Double
    /// For each pixel (row-major, `buffer.width` per row), bit i set when frame i contributed.
    public let provenance: [UInt8]
    /// Each frame's translation against the reference (the reference's is zero).
    public let shifts: [BayerShift]
    /// Of the non-reference frames' unclipped samples that overlapped the reference, the fraction
    /// the ghost test left out.
    public let ghostRejectedFraction: Double

    /// The frames that contributed to pixel (`x`, `y`), one bit each.
    public func contributors(x: Int, y: Int) -> UInt8 {
        provenance[y * buffer.width + x]
    }

    /// The merged value of pixel (`x`, `y`) in units of the reference's white (black-subtracted).
    public func value(x: Int, y: Int) -> Double {
        Double(Int(buffer[sample16: x, y: y]) - calibration.blackLevel) / Double(calibration.whiteLevel - calibration.blackLevel)
    }
}

/// How merged values in reference units become 16-bit samples.
struct MergedEncoding {
    /// Raw steps per unit of the reference's white.
    let unit: Float
    let pedestal: Float
    let headroom: Double

    init(headroom: Double) {
        self.headroom = headroom
        let steps = (65535 / (headroom + 1.0 / 16)).rounded(.down)
        unit = Float(steps)
        pedestal = Float((steps / 16).rounded(.down))
    }

    func calibration(colorMatrix: [Double]) -> RawCalibration {
        RawCalibration(blackLevel: Int(pedestal), whiteLevel: Int(pedestal + unit), colorMatrix: colorMatrix, headroom: headroom)
    }

    /// Encodes `count` merged values (a multiple of 8 may be read past `count`, up to the row's
    /// padding) into 16-bit samples, rounded and kept within 0…65535.
    func encode(_ values: UnsafePointer<Float>, count: Int, into samples: UnsafeMutablePointer<UInt16>) {
        let (unit, pedestal) = (SIMD8<Float>(repeating: unit), SIMD8<Float>(repeating: pedestal))
        for x in stride(from: 0, to: count, by: 8) {
            let value = UnsafeRawPointer(values + x).loadUnaligned(as: SIMD8<Float>.self)
            let raw = FastMath.minimum(FastMath.nonNegative(value * unit + pedestal), 65535)
            let encoded = SIMD8<UInt16>(truncatingIfNeeded: FastMath.rounded(raw))
            UnsafeMutableRawPointer(samples + x).storeBytes(of: encoded, as: SIMD8<UInt16>.self)
        }
    }
}
