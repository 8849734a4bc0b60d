/// The planes of a self-guided filter on one frame's luma, kept between frames so a recording
/// does not allocate seven frame-sized arrays per frame. Not thread-safe: its owner keeps it
/// behind a lock.
///
/// The planes are one allocation owned by this object, so the filter's loops index plain
/// pointers: as arrays in a struct, every write would check that the array is unshared.
final class GuidedFilterPlanes {
    private(set) var width = 0
    private(set) var height = 0
    private var memory = UnsafeMutableBufferPointer<Float>(start: nil, count: 0)

    deinit {
        memory.deallocate()
    }

    /// Makes every plane `width`×`height` (reusing them when the size is the same) and returns
    /// the luma plane, which the caller fills with values in 0…1.
    func resize(width: Int, height: Int) -> UnsafeMutablePointer<Float> {
        if width != self.width || height != self.height {
            memory.deallocate()
            memory = .allocate(capacity: 7 * width * height)
            memory.initialize(repeating: 0)
            self.width = width
            self.height = height
        }
        return plane(0)
    }

    /// Plane `index` of the seven: luma, smoothed, then the filter's intermediates.
    private func plane(_ index: Int) -> UnsafeMutablePointer<Float> {
        memory.baseAddress.unsafelyUnwrapped + index * width * height
    }

    /// The guided filter of the luma plane by itself, returned as a plane: in each
    /// (2·radius + 1)² window the linear fit a·I + b with a = σ²/(σ² + ε), the fits of the
    /// windows covering a pixel averaged.
    func smoothLuma(radius: Int, epsilon: Float) -> UnsafeMutablePointer<Float> {
        let count = width * height
        let luma = plane(0), smoothed = plane(1), mean = plane(2), meanOfSquares = plane(3)
        let slope = plane(4), offset = plane(5), scratch = plane(6)
        for index in 0..<count {
            slope[index] = luma[index] * luma[index]
        }
        boxMean(luma, into: mean, scratch: scratch, radius: radius)
        boxMean(slope, into: meanOfSquares, scratch: scratch, radius: radius)
        for index in 0..<count {
            let variance = max(meanOfSquares[index] - mean[index] * mean[index], 0)
            let a = variance / (variance + epsilon)
            slope[index] = a
            offset[index] = mean[index] - a * mean[index]
        }
        boxMean(slope, into: mean, scratch: scratch, radius: radius)
        boxMean(offset, into: meanOfSquares, scratch: scratch, radius: radius)
        for index in 0..<count {
            smoothed[index] = mean[index] * luma[index] + meanOfSquares[index]
        }
        return smoothed
    }

    /// The mean of `input` over the window of `radius` around each pixel, the window cut at the
    /// frame's edges: running sums along rows into `scratch`, then down its columns a row at a time.
    private func boxMean(_ input: UnsafeMutablePointer<Float>, into output: UnsafeMutablePointer<Float>,
                         scratch horizontal: UnsafeMutablePointer<Float>, radius: Int) {
        let width = width, height = height
        // 1 / the window's width at each column, so the row loop multiplies instead of dividing.
        let reciprocals = (0..<width).map { x in 1 / Float(min(x + radius, width - 1) - max(x - radius, 0) + 1) }
        var columns = [Float](repeating: 0, count: width)
        reciprocals.withUnsafeBufferPointer { reciprocals in
            for y in 0..<height {
                let row = y * width
                var sum: Float = 0
                for x in 0..<min(radius, width) { sum += input[row + x] }
                for x in 0..<width {
                    if x + radius < width { sum += input[row + x + radius] }
                    if x - radius - 1 >= 0 { sum -= input[row + x - radius - 1] }
                    horizontal[row + x] = sum * reciprocals[x]
                }
            }
        }
        columns.withUnsafeMutableBufferPointer { columns in
            for y in 0..<min(radius, height) {
                for x in 0..<width { columns[x] += horizontal[y * width + x] }
            }
            for y in 0..<height {
                if y + radius < height {
                    let entering = horizontal + (y + radius) * width
                    for x in 0..<width { columns[x] += entering[x] }
                }
                if y - radius - 1 >= 0 {
                    let leaving = horizontal + (y - radius - 1) * width
                    for x in 0..<width { columns[x] -= leaving[x] }
                }
                let scale = 1 / Float(min(y + radius, height - 1) - max(y - radius, 0) + 1)
                let target = output + y * width
                for x in 0..<width { target[x] = columns[x] * scale }
            }
        }
    }
}
