import Foundation

/// One channel of an image as `Double`s, row-major: the luminance TMQI and MEF-SSIM compare, with the
/// filters they need (MATLAB's `filter2(window, x, 'valid')` with the 11×11 Gaussian, and the 2×2 mean
/// that steps down a scale).
public struct LuminancePlane: Sendable {
    public let width: Int
    public let height: Int
    /// `width × height` values, row by row.
    public var values: [Double]

    public init(width: Int, height: Int, values: [Double]) {
        precondition(values.count == width * height, "expected \(width * height) values, got \(values.count)")
        self.width = width
        self.height = height
        self.values = values
    }

    /// The 11-tap Gaussian of σ = 1.5, normalised (`fspecial('gaussian', 11, 1.5)` is its outer
    /// product with itself).
    static let gaussian: [Double] = {
        let taps = (-5...5).map { exp(-Double($0 * $0) / (2 * 1.5 * 1.5)) }
        let sum = taps.reduce(0, +)
        return taps.map { $0 / sum }
    }()

    /// The 121 weights of the 11×11 window, row by row.
    private static let window: [Double] = gaussian.flatMap { row in gaussian.map { row * $0 } }

    /// The window's side.
    static let windowSide = 11

    /// The image a scale coarser: each value the mean of a 2×2 block, the last row and column
    /// mirrored where the size is odd (`imfilter(x, ones(2)/4, 'symmetric')`, then every other pixel).
    func halved() -> LuminancePlane {
        let outWidth = (width + 1) / 2, outHeight = (height + 1) / 2
        var result = [Double](repeating: 0, count: outWidth * outHeight)
        values.withUnsafeBufferPointer { input in
            for y in 0..<outHeight {
                let top = 2 * y * width, bottom = min(2 * y + 1, height - 1) * width
                for x in 0..<outWidth {
                    let left = 2 * x, right = min(2 * x + 1, width - 1)
                    result[y * outWidth + x] = (input[top + left] + input[top + right]
                        + input[bottom + left] + input[bottom + right]) / 4
                }
            }
        }
        return LuminancePlane(width: outWidth, height: outHeight, values: result)
    }

    /// The Gaussian-weighted mean of every 11×11 window inside the image, `(width − 10) × (height − 10)`
    /// values (separable: rows, then columns).
    func windowMeans() -> [Double] {
        let side = LuminancePlane.windowSide, taps = LuminancePlane.gaussian
        let outWidth = width - side + 1, outHeight = height - side + 1
        var rows = [Double](repeating: 0, count: outWidth * height)
        var result = [Double](repeating: 0, count: outWidth * outHeight)
        values.withUnsafeBufferPointer { input in
            for y in 0..<height {
                for x in 0..<outWidth {
                    var sum = 0.0
                    for k in 0..<side { sum += taps[k] * input[y * width + x + k] }
                    rows[y * outWidth + x] = sum
                }
            }
        }
        for y in 0..<outHeight {
            for x in 0..<outWidth {
                var sum = 0.0
                for k in 0..<side { sum += taps[k] * rows[(y + k) * outWidth + x] }
                result[y * outWidth + x] = sum
            }
        }
        return result
    }

    /// Calls `body` for every 11×11 window inside both images (same size) with the Gaussian-weighted
    /// standard deviations of `self` and `other` there and their covariance.
    ///
    /// The moments are summed about each window's mean rather than as E[x²] − μ², as the reference
    /// code does: at TMQI's 0…2³² − 1 HDR scale that difference leaves a flat window rounding noise
    /// of tens of levels, which the signal-strength threshold (1–3 levels) would read as structure.
    func forEachWindow(with other: LuminancePlane,
                       _ body: (_ deviation: Double, _ otherDeviation: Double, _ covariance: Double) -> Void) {
        precondition(width == other.width && height == other.height, "planes of different sizes")
        let side = LuminancePlane.windowSide
        let outWidth = width - side + 1, outHeight = height - side + 1
        guard outWidth > 0, outHeight > 0 else { return }
        let means = windowMeans(), otherMeans = other.windowMeans()
        LuminancePlane.window.withUnsafeBufferPointer { window in
            values.withUnsafeBufferPointer { first in
                other.values.withUnsafeBufferPointer { second in
                    for y in 0..<outHeight {
                        for x in 0..<outWidth {
                            let mean = means[y * outWidth + x], otherMean = otherMeans[y * outWidth + x]
                            var variance = 0.0, otherVariance = 0.0, covariance = 0.0
                            for ky in 0..<side {
                                let row = (y + ky) * width + x
                                for kx in 0..<side {
                                    let weight = window[ky * side + kx]
                                    let d = first[row + kx] - mean, e = second[row + kx] - otherMean
                                    variance += weight * d * d
                                    otherVariance += weight * e * e
                                    covariance += weight * d * e
                                }
                            }
                            body(variance.squareRoot(), otherVariance.squareRoot(), covariance)
                        }
                    }
                }
            }
        }
    }
}
