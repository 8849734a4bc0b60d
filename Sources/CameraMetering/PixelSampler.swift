import CameraCore

/// A core `PixelReader` that also gives whole rows' mean luma (SIMD, every pixel) for the
/// analysis. The analysis is generic over it, so each format gets its own specialised loops.
protocol PixelSampler: PixelReader {
    /// Mean encoded luma (0…1) of `columns` in row `y`.
    func rowMean(y: Int, columns: Range<Int>) -> Float
}

extension BGRAReader: PixelSampler {
    func rowMean(y: Int, columns: Range<Int>) -> Float {
        let sums = RowSums.bgra(UnsafeRawPointer(pixels.row(y) + columns.lowerBound * 4), count: columns.count)
        return (BT709.redWeight * Float(sums.red) + BT709.greenWeight * Float(sums.green) + BT709.blueWeight * Float(sums.blue))
            / Float(columns.count) / 255
    }
}

extension GrayReader: PixelSampler {
    func rowMean(y: Int, columns: Range<Int>) -> Float {
        Float(RowSums.luma(UnsafeRawPointer(pixels.row(y) + columns.lowerBound), count: columns.count, stride: 1)) / Float(columns.count) / 255
    }
}

extension NV12Reader: PixelSampler {
    func rowMean(y: Int, columns: Swift.Range<Int>) -> Float {
        let sum = RowSums.luma(UnsafeRawPointer(luma.row(y) + columns.lowerBound), count: columns.count, stride: 1)
        return fullRangeMean(sum, count: columns.count, range: Range.range)
    }
}

extension YUYVReader: PixelSampler {
    func rowMean(y: Int, columns: Range<Int>) -> Float {
        let sum = RowSums.luma(UnsafeRawPointer(pixels.row(y) + columns.lowerBound * 2), count: columns.count, stride: 2)
        return fullRangeMean(sum, count: columns.count, range: .video)
    }
}

/// The full-range mean (0…1) of `count` luma values summing to `sum` (video range: 16 → 0, 235 → 1).
private func fullRangeMean(_ sum: Int, count: Int, range: YCbCrRange) -> Float {
    let mean = Float(sum) / Float(count)
    return range == .video ? min(max((mean - 16) / 219, 0), 1) : mean / 255
}
