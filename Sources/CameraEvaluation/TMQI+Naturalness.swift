import Foundation

/// TMQI's statistical naturalness N (Yeganeh and Wang 2013, section II.B): how likely the
/// rendering's mean brightness and contrast are among natural images, each from the paper's fit to
/// about 3,000 of them, scaled so the most likely value scores 1.
extension TMQI {
    /// The Gaussian fit of natural images' mean luminance (8-bit levels).
    static let brightnessMean = 115.94
    static let brightnessDeviation = 27.99
    /// The Beta fit of natural images' contrast (the mean of 11×11 block deviations over 64.29).
    static let contrastScale = 64.29
    static let contrastAlpha = 4.4
    static let contrastBeta = 10.1
    /// The side of the blocks whose deviations make the contrast.
    static let contrastBlockSide = 11

    /// N = P_m × P_d: the brightness likelihood (Gaussian) times the contrast likelihood (Beta),
    /// each over its peak — the reference code's normpdf(u)/normpdf(μ) and betapdf(σ/64.29)/betapdf(mode).
    static func naturalness(of ldr: LuminancePlane) -> Double {
        let mean = ldr.values.reduce(0, +) / Double(ldr.values.count)
        let z = (mean - brightnessMean) / brightnessDeviation
        let brightness = exp(-z * z / 2)
        let x = meanBlockDeviation(ldr) / contrastScale
        let mode = (contrastAlpha - 1) / (contrastAlpha + contrastBeta - 2)
        let contrast = x < 1 ? pow(x / mode, contrastAlpha - 1) * pow((1 - x) / (1 - mode), contrastBeta - 1) : 0
        return brightness * contrast
    }

    /// The reference code's `mean2(blkproc(L, [11 11], @(x) std(x(:)) * ones(size(x))))`: each
    /// 11×11 block's sample deviation (n − 1), blocks at the right and bottom edges padded with
    /// zeros to full size, averaged over the pixels, so a partial block counts by its real area.
    static func meanBlockDeviation(_ plane: LuminancePlane) -> Double {
        let side = contrastBlockSide, full = Double(side * side)
        var total = 0.0
        plane.values.withUnsafeBufferPointer { values in
            for top in stride(from: 0, to: plane.height, by: side) {
                for left in stride(from: 0, to: plane.width, by: side) {
                    let rows = top..<min(top + side, plane.height), columns = left..<min(left + side, plane.width)
                    var sum = 0.0
                    for y in rows { for x in columns { sum += values[y * plane.width + x] } }
                    let mean = sum / full
                    let real = Double(rows.count * columns.count)
                    var squares = (full - real) * mean * mean
                    for y in rows {
                        for x in columns {
                            let d = values[y * plane.width + x] - mean
                            squares += d * d
                        }
                    }
                    total += (squares / (full - 1)).squareRoot() * real
                }
            }
        }
        return total / Double(plane.values.count)
    }
}
