/// The planes of a self-guided filter on one frame's luma, kept between frames so a recording
/// does not allocate a dozen planes per frame. Not thread-safe: its owner keeps it behind a lock.
///
/// The filter is He & Sun's fast guided filter (2015): the linear fits are found on the luma
/// averaged over `scale`×`scale` blocks (`scale(radius:)`), then brought back to full size
/// bilinearly, row by row where the caller asks, and applied to the full-size luma, so edges stay
/// as sharp as the frame's own. Beside the luma, each block carries a flag (set by the caller) for
/// whether it may hold skin, so the caller can skip the rest. The planes are one allocation owned
/// by this object, so the loops index plain pointers (as arrays in a struct, every write would
/// check that the array is unshared).
final class GuidedFilterPlanes {
    /// The largest block: 16 pixels, so that a block's channel sums fit 16 bits.
    static let largestScale = 4

    /// The block size for a window of `radius`: about half the radius, as He & Sun's examples
    /// take it (a block a quarter of the window), 2 or `largestScale`, so blocks are pixel pairs.
    static func scale(radius: Int) -> Int {
        radius >= 2 * largestScale ? largestScale : 2
    }

    /// One row's fits a and b, indexed by full-size column (`fits(row:columns:)`).
    typealias Fits = (slopes: UnsafePointer<Float>, offsets: UnsafePointer<Float>)

    private(set) var scale = 0

    private(set) var width = 0
    private(set) var height = 0
    private(set) var lowWidth = 0
    private(set) var lowHeight = 0
    private var memory = UnsafeMutableBufferPointer<Float>(start: nil, count: 0)
    private var flags = UnsafeMutableBufferPointer<Bool>(start: nil, count: 0)
    /// For each column of a block, the weight of its neighbour: the block before it for the
    /// first half of the columns, the block after for the rest.
    private var neighbourWeights = [Float]()

    deinit {
        memory.deallocate()
        flags.deallocate()
    }

    /// Makes every plane fit a `width`×`height` frame in blocks of `scale` (reusing them when
    /// nothing changed).
    func resize(width: Int, height: Int, scale: Int) {
        guard width != self.width || height != self.height || scale != self.scale else { return }
        memory.deallocate()
        flags.deallocate()
        (self.width, self.height, self.scale) = (width, height, scale)
        lowWidth = (width + scale - 1) / scale
        lowHeight = (height + scale - 1) / scale
        memory = .allocate(capacity: 6 * lowWidth * lowHeight + 2 * lowWidth * scale)
        memory.initialize(repeating: 0)
        flags = .allocate(capacity: 2 * lowWidth * lowHeight)
        flags.initialize(repeating: false)
        neighbourWeights = (0..<scale).map { column in abs((Float(column) + 0.5) / Float(scale) - 0.5) }
    }

    /// The block luma plane (0…1, `lowWidth` per row), which the caller fills with each block's mean.
    var blockLuma: UnsafeMutablePointer<Float> { lowPlane(0) }

    /// One flag per block, which the caller sets where the block's colour may be skin.
    var skinBlocks: UnsafeMutablePointer<Bool> { flags.baseAddress.unsafelyUnwrapped }

    /// Block plane `index` of six: the luma, then the filter's intermediates and fits.
    private func lowPlane(_ index: Int) -> UnsafeMutablePointer<Float> {
        memory.baseAddress.unsafelyUnwrapped + index * lowWidth * lowHeight
    }

    /// The guided filter's fits of the block luma by itself: in each window of about
    /// (2·radius + 1)² full-size pixels the linear fit a·I + b with a = σ²/(σ² + ε), the fits of
    /// the windows covering a block averaged. `epsilon` is for blocks of 2×2: a block of s×s
    /// averages pixel noise down to 1/s² of its variance, so ε is scaled by 4/s² and the same
    /// noise counts as texture at every block size.
    func fit(radius: Int, epsilon: Float) {
        let epsilon = epsilon * 4 / Float(scale * scale)
        let count = lowWidth * lowHeight, lowRadius = max((radius + scale / 2) / scale, 1)
        let luma = lowPlane(0), mean = lowPlane(1), meanOfSquares = lowPlane(2)
        let slope = lowPlane(3), offset = lowPlane(4), scratch = lowPlane(5)
        for index in 0..<count {
            slope[index] = luma[index] * luma[index]
        }
        boxMean(luma, into: mean, scratch: scratch, radius: lowRadius)
        boxMean(slope, into: meanOfSquares, scratch: scratch, radius: lowRadius)
        for index in 0..<count {
            let variance = max(meanOfSquares[index] - mean[index] * mean[index], 0)
            let a = variance / (variance + epsilon)
            slope[index] = a
            offset[index] = mean[index] - a * mean[index]
        }
        boxMean(slope, into: mean, scratch: scratch, radius: lowRadius)
        boxMean(offset, into: meanOfSquares, scratch: scratch, radius: lowRadius)
    }

    /// Widens the skin flags by one block each way, so a block whose mean is not skin but that
    /// borders one that is (a face's rim) is still looked at pixel by pixel: along the rows into
    /// the second half of the flags, then down the columns back.
    func widenSkinBlocks() {
        let flags = skinBlocks, widened = skinBlocks + lowWidth * lowHeight, lowWidth = lowWidth
        for y in 0..<lowHeight {
            let row = flags + y * lowWidth, target = widened + y * lowWidth
            for x in 0..<lowWidth {
                target[x] = row[max(x - 1, 0)] || row[x] || row[min(x + 1, lowWidth - 1)]
            }
        }
        for y in 0..<lowHeight {
            let above = widened + max(y - 1, 0) * lowWidth, row = widened + y * lowWidth
            let below = widened + min(y + 1, lowHeight - 1) * lowWidth, target = flags + y * lowWidth
            for x in 0..<lowWidth {
                target[x] = above[x] || row[x] || below[x]
            }
        }
    }

    /// The full-size columns of each run of skin blocks in block row `lowY`, left to right.
    func skinRuns(blockRow lowY: Int) -> [Range<Int>] {
        let row = skinBlocks + lowY * lowWidth
        var runs = [Range<Int>](), start: Int?
        for x in 0...lowWidth {
            let isSkin = x < lowWidth && row[x]
            if isSkin, start == nil { start = x }
            if !isSkin, let first = start {
                runs.append(first * scale..<min(x * scale, width))
                start = nil
            }
        }
        return runs
    }

    /// The fits a and b at full-size row `y` over `columns` (whole blocks, but for the frame's
    /// last: a run from `skinRuns`), interpolated bilinearly between the block samples, each centred on its block: first
    /// between the two block rows around `y`, then along the row, a block at a time. The pointers
    /// are indexed by full-size column and hold values only within `columns`, until the next call.
    func fits(row y: Int, columns range: Range<Int>) -> Fits {
        let lowWidth = lowWidth, scale = scale, half = scale / 2
        let slopes = lowPlane(1), offsets = lowPlane(2)
        let rowSlopes = lowPlane(0) + 6 * lowWidth * lowHeight, rowOffsets = rowSlopes + lowWidth * scale
        let (row, rowWeight) = interpolation(position: y, lowCount: lowHeight)
        let first = row * lowWidth, second = min(row + 1, lowHeight - 1) * lowWidth
        let blocks = range.lowerBound / scale..<(range.upperBound + scale - 1) / scale
        let samples = max(blocks.lowerBound - 1, 0)..<min(blocks.upperBound + 1, lowWidth)
        // The planes the fits were found in, free once they are averaged.
        let lowSlopes = lowPlane(3), lowOffsets = lowPlane(4)
        for x in samples {
            lowSlopes[x] = slopes[first + x] + (slopes[second + x] - slopes[first + x]) * rowWeight
            lowOffsets[x] = offsets[first + x] + (offsets[second + x] - offsets[first + x]) * rowWeight
        }
        if scale == 4 {
            // A block's four columns as one vector: about half the scalar loop's time (perf of the 1080p bench frame).
            let weights = SIMD4(neighbourWeights[0], neighbourWeights[1], neighbourWeights[2], neighbourWeights[3])
            for block in blocks {
                let before = max(block - 1, 0), after = min(block + 1, lowWidth - 1)
                Self.expand(lowSlopes, into: rowSlopes, block: block, before: before, after: after, weights: weights)
                Self.expand(lowOffsets, into: rowOffsets, block: block, before: before, after: after, weights: weights)
            }
            return (UnsafePointer(rowSlopes), UnsafePointer(rowOffsets))
        }
        neighbourWeights.withUnsafeBufferPointer { weights in
            for block in blocks {
                let before = max(block - 1, 0), after = min(block + 1, lowWidth - 1)
                let slope = lowSlopes[block], offset = lowOffsets[block]
                for column in 0..<scale {
                    let neighbour = column < half ? before : after, x = block &* scale &+ column
                    rowSlopes[x] = slope + (lowSlopes[neighbour] - slope) * weights[column]
                    rowOffsets[x] = offset + (lowOffsets[neighbour] - offset) * weights[column]
                }
            }
        }
        return (UnsafePointer(rowSlopes), UnsafePointer(rowOffsets))
    }

    /// The four columns of `block` (of 4) from its sample in `low` and its neighbours'.
    @inline(__always)
    private static func expand(_ low: UnsafeMutablePointer<Float>, into target: UnsafeMutablePointer<Float>, block: Int,
                               before: Int, after: Int, weights: SIMD4<Float>) {
        let centre = SIMD4(repeating: low[block]), neighbours = SIMD4(low[before], low[before], low[after], low[after])
        UnsafeMutableRawPointer(target + block &* 4).storeBytes(of: centre + (neighbours - centre) * weights, as: SIMD4<Float>.self)
    }

    /// The block sample at or before full-size `position` and the weight of the one after.
    private func interpolation(position: Int, lowCount: Int) -> (Int, Float) {
        let place = (Float(position) + 0.5) / Float(scale) - 0.5
        let sample = min(max(Int(place.rounded(.down)), 0), lowCount - 1)
        return (sample, min(max(place - Float(sample), 0), 1))
    }

    /// The mean of block plane `input` over the window of `radius` around each block, the window
    /// cut at the frame's edges: running sums along rows into `scratch`, then down its columns a
    /// row at a time.
    private func boxMean(_ input: UnsafeMutablePointer<Float>, into output: UnsafeMutablePointer<Float>,
                         scratch horizontal: UnsafeMutablePointer<Float>, radius: Int) {
        let width = lowWidth, height = lowHeight
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
