/// The planes of a self-guided filter on one frame's luma, kept between frames so a recording
/// does not allocate a dozen frame-sized planes per frame. Not thread-safe: its owner keeps it
/// behind a lock.
///
/// The filter is He & Sun's fast guided filter (2015): the linear fits are found on the luma
/// halved in each direction, a quarter of the work, then brought back to full size bilinearly and
/// applied to the full-size luma, so edges stay as sharp as the frame's own. The planes are one
/// allocation owned by this object, so the loops index plain pointers (as arrays in a struct,
/// every write would check that the array is unshared).
final class GuidedFilterPlanes {
    private var width = 0
    private var height = 0
    private var memory = UnsafeMutableBufferPointer<Float>(start: nil, count: 0)

    private var lowWidth: Int { (width + 1) / 2 }
    private var lowHeight: Int { (height + 1) / 2 }

    deinit {
        memory.deallocate()
    }

    /// Makes every plane fit a `width`×`height` frame (reusing them when the size is the same)
    /// and returns the luma plane, which the caller fills with values in 0…1.
    func resize(width: Int, height: Int) -> UnsafeMutablePointer<Float> {
        if width != self.width || height != self.height {
            memory.deallocate()
            self.width = width
            self.height = height
            memory = .allocate(capacity: 2 * width * height + 6 * lowWidth * lowHeight)
            memory.initialize(repeating: 0)
        }
        return fullPlane(0)
    }

    /// Full-size plane 0 (luma) or 1 (smoothed).
    private func fullPlane(_ index: Int) -> UnsafeMutablePointer<Float> {
        memory.baseAddress.unsafelyUnwrapped + index * width * height
    }

    /// Half-size plane `index` of six: the luma, then the filter's intermediates.
    private func lowPlane(_ index: Int) -> UnsafeMutablePointer<Float> {
        fullPlane(2) + index * lowWidth * lowHeight
    }

    /// The guided filter of the luma plane by itself, returned as a plane: in each window of
    /// about (2·radius + 1)² pixels the linear fit a·I + b with a = σ²/(σ² + ε), the fits of the
    /// windows covering a pixel averaged.
    func smoothLuma(radius: Int, epsilon: Float) -> UnsafeMutablePointer<Float> {
        let lowWidth = lowWidth, lowHeight = lowHeight, count = lowWidth * lowHeight, lowRadius = (radius + 1) / 2
        let low = lowPlane(0), mean = lowPlane(1), meanOfSquares = lowPlane(2)
        let slope = lowPlane(3), offset = lowPlane(4), scratch = lowPlane(5)
        halve(fullPlane(0), into: low)
        for index in 0..<count {
            slope[index] = low[index] * low[index]
        }
        Self.boxMean(low, into: mean, scratch: scratch, width: lowWidth, height: lowHeight, radius: lowRadius)
        Self.boxMean(slope, into: meanOfSquares, scratch: scratch, width: lowWidth, height: lowHeight, radius: lowRadius)
        for index in 0..<count {
            let variance = max(meanOfSquares[index] - mean[index] * mean[index], 0)
            let a = variance / (variance + epsilon)
            slope[index] = a
            offset[index] = mean[index] - a * mean[index]
        }
        Self.boxMean(slope, into: mean, scratch: scratch, width: lowWidth, height: lowHeight, radius: lowRadius)
        Self.boxMean(offset, into: meanOfSquares, scratch: scratch, width: lowWidth, height: lowHeight, radius: lowRadius)
        applyFits(slopes: mean, offsets: meanOfSquares)
        return fullPlane(1)
    }

    /// The mean of each 2×2 block of the full-size luma (the last row or column repeated when
    /// the size is odd).
    private func halve(_ luma: UnsafeMutablePointer<Float>, into low: UnsafeMutablePointer<Float>) {
        let width = width, height = height, lowWidth = lowWidth
        for lowY in 0..<lowHeight {
            let top = luma + 2 * lowY * width, bottom = luma + min(2 * lowY + 1, height - 1) * width
            for lowX in 0..<lowWidth {
                let left = 2 * lowX, right = min(2 * lowX + 1, width - 1)
                low[lowY * lowWidth + lowX] = 0.25 * (top[left] + top[right] + bottom[left] + bottom[right])
            }
        }
    }

    /// smoothed = a·I + b at every full-size pixel, a and b interpolated bilinearly between the
    /// half-size samples (each centred on its 2×2 block).
    private func applyFits(slopes: UnsafeMutablePointer<Float>, offsets: UnsafeMutablePointer<Float>) {
        let width = width, lowWidth = lowWidth
        let columns = Self.interpolation(count: width, lowCount: lowWidth)
        let luma = fullPlane(0), smoothed = fullPlane(1)
        for y in 0..<height {
            let (row, rowWeight) = Self.interpolation(position: y, lowCount: lowHeight)
            let first = row * lowWidth, second = min(row + 1, lowHeight - 1) * lowWidth
            for x in 0..<width {
                let (column, weight) = columns[x]
                let next = min(column + 1, lowWidth - 1)
                let a = Self.bilinear(slopes, first, second, column, next, weight, rowWeight)
                let b = Self.bilinear(offsets, first, second, column, next, weight, rowWeight)
                smoothed[y * width + x] = a * luma[y * width + x] + b
            }
        }
    }

    @inline(__always)
    private static func bilinear(_ plane: UnsafeMutablePointer<Float>, _ first: Int, _ second: Int,
                                 _ column: Int, _ next: Int, _ weight: Float, _ rowWeight: Float) -> Float {
        let top = plane[first + column] + (plane[first + next] - plane[first + column]) * weight
        let bottom = plane[second + column] + (plane[second + next] - plane[second + column]) * weight
        return top + (bottom - top) * rowWeight
    }

    /// For each of `count` full-size positions, the half-size sample at or before it and the
    /// weight of the one after.
    private static func interpolation(count: Int, lowCount: Int) -> [(Int, Float)] {
        (0..<count).map { interpolation(position: $0, lowCount: lowCount) }
    }

    private static func interpolation(position: Int, lowCount: Int) -> (Int, Float) {
        let place = (Float(position) - 0.5) / 2
        let sample = min(max(Int(place.rounded(.down)), 0), lowCount - 1)
        return (sample, min(max(place - Float(sample), 0), 1))
    }

    /// The mean of `input` over the window of `radius` around each pixel, the window cut at the
    /// frame's edges: running sums along rows into `scratch`, then down its columns a row at a time.
    private static func boxMean(_ input: UnsafeMutablePointer<Float>, into output: UnsafeMutablePointer<Float>,
                                scratch horizontal: UnsafeMutablePointer<Float>, width: Int, height: Int, radius: Int) {
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
