/// The planes of a self-guided filter on one frame's luma, kept between frames so a recording
/// does not allocate six frame-sized arrays per frame.
struct GuidedFilterPlanes {
    private(set) var width = 0
    private(set) var height = 0
    /// The input, 0…1, written by the caller.
    var luma = [Float]()
    /// The output of `smoothLuma`.
    private(set) var smoothed = [Float]()
    private var mean = [Float]()
    private var meanOfSquares = [Float]()
    private var slope = [Float]()
    private var offset = [Float]()
    private var horizontal = [Float]()

    /// Makes every plane `width`×`height` (reusing them when the size is the same).
    mutating func resize(width: Int, height: Int) {
        guard width != self.width || height != self.height else { return }
        self.width = width
        self.height = height
        let empty = [Float](repeating: 0, count: width * height)
        (luma, smoothed, mean, meanOfSquares, slope, offset, horizontal) = (empty, empty, empty, empty, empty, empty, empty)
    }

    /// `smoothed` = the guided filter of `luma` by itself: in each (2·radius + 1)² window the
    /// linear fit a·I + b with a = σ²/(σ² + ε), the fits of the windows covering a pixel averaged.
    mutating func smoothLuma(radius: Int, epsilon: Float) {
        for index in luma.indices {
            slope[index] = luma[index] * luma[index]
        }
        Self.boxMean(luma, into: &mean, scratch: &horizontal, width: width, height: height, radius: radius)
        Self.boxMean(slope, into: &meanOfSquares, scratch: &horizontal, width: width, height: height, radius: radius)
        for index in luma.indices {
            let variance = max(meanOfSquares[index] - mean[index] * mean[index], 0)
            let a = variance / (variance + epsilon)
            slope[index] = a
            offset[index] = mean[index] - a * mean[index]
        }
        Self.boxMean(slope, into: &mean, scratch: &horizontal, width: width, height: height, radius: radius)
        Self.boxMean(offset, into: &meanOfSquares, scratch: &horizontal, width: width, height: height, radius: radius)
        for index in luma.indices {
            smoothed[index] = mean[index] * luma[index] + meanOfSquares[index]
        }
    }

    /// The mean of `input` over the window of `radius` around each pixel, the window cut at the
    /// frame's edges: running sums along rows, then down columns a whole row at a time.
    private static func boxMean(_ input: [Float], into output: inout [Float], scratch horizontal: inout [Float],
                                width: Int, height: Int, radius: Int) {
        input.withUnsafeBufferPointer { input in
            horizontal.withUnsafeMutableBufferPointer { horizontal in
                for y in 0..<height {
                    let row = y * width
                    var sum: Float = 0
                    for x in 0..<min(radius, width) { sum += input[row + x] }
                    for x in 0..<width {
                        if x + radius < width { sum += input[row + x + radius] }
                        if x - radius - 1 >= 0 { sum -= input[row + x - radius - 1] }
                        let count = min(x + radius, width - 1) - max(x - radius, 0) + 1
                        horizontal[row + x] = sum / Float(count)
                    }
                }
            }
        }
        horizontal.withUnsafeBufferPointer { horizontal in
            output.withUnsafeMutableBufferPointer { output in
                var columns = [Float](repeating: 0, count: width)
                for y in 0..<min(radius, height) {
                    for x in 0..<width { columns[x] += horizontal[y * width + x] }
                }
                for y in 0..<height {
                    let entering = y + radius < height ? (y + radius) * width : nil
                    let leaving = y - radius - 1 >= 0 ? (y - radius - 1) * width : nil
                    if let entering { for x in 0..<width { columns[x] += horizontal[entering + x] } }
                    if let leaving { for x in 0..<width { columns[x] -= horizontal[leaving + x] } }
                    let scale = 1 / Float(min(y + radius, height - 1) - max(y - radius, 0) + 1)
                    for x in 0..<width { output[y * width + x] = columns[x] * scale }
                }
            }
        }
    }
}
