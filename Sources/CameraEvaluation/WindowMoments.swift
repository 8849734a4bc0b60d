/// The first and second moments of equally sized planes over every 11×11 window inside them, under
/// both windows MEF-SSIM uses: the box (uniform) mean, which decomposes the source patches, and the
/// Gaussian (σ 1.5) mean, which compares the result with the fused patch. For every plane i it gives
/// E[xᵢ], and for every pair i ≤ j E[xᵢxⱼ], from which any variance or covariance follows.
///
/// Both windows are separable, so each moment is filtered along rows, then down columns; the row
/// results of the last 11 rows wait in a ring, so a band of output rows costs memory of 11 rows per
/// moment, not of the whole image. The box sums run over exact sums for code values that are whole
/// (or halved a few times), so a flat patch has a variance of exactly 0.
struct WindowMoments {
    /// The window's side.
    static let side = LuminancePlane.windowSide

    let planes: [LuminancePlane]
    /// The pairs (i, j), i ≤ j, whose product moments follow the planes' own, in this order.
    let pairs: [(Int, Int)]
    let width: Int
    let height: Int
    /// The number of window positions along a row and down a column.
    let outWidth: Int
    let outHeight: Int

    /// `planes` all the same size, each side at least `side`.
    init(planes: [LuminancePlane]) {
        precondition(!planes.isEmpty && planes.allSatisfy { $0.width == planes[0].width && $0.height == planes[0].height })
        self.planes = planes
        pairs = planes.indices.flatMap { i in (i..<planes.count).map { j in (i, j) } }
        width = planes[0].width
        height = planes[0].height
        outWidth = width - Self.side + 1
        outHeight = height - Self.side + 1
        precondition(outWidth > 0 && outHeight > 0, "planes smaller than the window")
    }

    /// How many moments there are: one per plane, then one per pair.
    var momentCount: Int { planes.count + pairs.count }

    /// The index of E[xᵢxⱼ] among the moments.
    func pairMoment(_ i: Int, _ j: Int) -> Int {
        let (low, high) = i <= j ? (i, j) : (j, i)
        // Pairs (low, ·) start after those of the lower planes: n + (n − 1) + … .
        let before = low * planes.count - low * (low - 1) / 2
        return planes.count + before + (high - low)
    }

    /// One row of window positions: moment m at position x is `box[m * outWidth + x]` under the box
    /// window and `gaussian[m * outWidth + x]` under the Gaussian.
    struct Row {
        let box: UnsafeBufferPointer<Double>
        let gaussian: UnsafeBufferPointer<Double>
    }

    /// Calls `body` with each row of window positions in `rows` (top-left corners, in order).
    ///
    /// Each input row is filtered once per moment along the row into the ring; the box column sums
    /// then run down the image (the row entering added, the one leaving the ring taken off, exactly),
    /// and the Gaussian's 11 ring rows are combined once per output row. All buffers are allocated
    /// here, once per call.
    func forEachRow(in rows: Range<Int>, _ body: (_ y: Int, _ row: Row) -> Void) {
        let side = Self.side, count = momentCount, stride = outWidth, width = width
        let scale = 1 / Double(side * side)
        var product = [Double](repeating: 0, count: width)
        var ringBox = [Double](repeating: 0, count: side * count * stride)
        var ringGaussian = ringBox
        var columnBox = [Double](repeating: 0, count: count * stride)
        var box = columnBox
        var gaussian = columnBox
        for input in rows.lowerBound..<(rows.upperBound + side - 1) {
            let slot = input % side
            for moment in 0..<count {
                fillProduct(moment, row: input, into: &product)
                let offset = (slot * count + moment) * stride
                product.withUnsafeBufferPointer { source in
                    ringBox.withUnsafeMutableBufferPointer { ring in
                        columnBox.withUnsafeMutableBufferPointer { column in
                            Self.boxSums(source.baseAddress!, replacing: ring.baseAddress! + offset,
                                         column: column.baseAddress! + moment * stride, count: stride)
                        }
                    }
                    ringGaussian.withUnsafeMutableBufferPointer {
                        Self.gaussianSums(source.baseAddress!, into: $0.baseAddress! + offset, count: stride)
                    }
                }
            }
            let top = input - side + 1
            guard top >= rows.lowerBound else { continue }
            columnBox.withUnsafeBufferPointer { column in
                box.withUnsafeMutableBufferPointer { box in
                    for index in 0..<(count * stride) { box[index] = column[index] * scale }
                }
            }
            ringGaussian.withUnsafeBufferPointer { ring in
                gaussian.withUnsafeMutableBufferPointer { out in
                    for moment in 0..<count {
                        Self.verticalGaussian(ring.baseAddress!, top: top, moment: moment, moments: count, stride: stride,
                                              into: out.baseAddress! + moment * stride)
                    }
                }
            }
            box.withUnsafeBufferPointer { box in
                gaussian.withUnsafeBufferPointer { gaussian in body(top, Row(box: box, gaussian: gaussian)) }
            }
        }
    }

    /// Row `row` of moment `moment`'s plane: a plane's values, or the product of a pair's.
    private func fillProduct(_ moment: Int, row: Int, into product: inout [Double]) {
        let start = row * width, width = width
        product.withUnsafeMutableBufferPointer { product in
            let out = product.baseAddress!
            if moment < planes.count {
                planes[moment].values.withUnsafeBufferPointer { out.update(from: $0.baseAddress! + start, count: width) }
                return
            }
            let (i, j) = pairs[moment - planes.count]
            planes[i].values.withUnsafeBufferPointer { first in
                planes[j].values.withUnsafeBufferPointer { second in
                    let first = first.baseAddress! + start, second = second.baseAddress! + start
                    for x in 0..<width { out[x] = first[x] * second[x] }
                }
            }
        }
    }

    /// Writes the sums of every `side` consecutive values of `source` into `ring`, a running sum, and
    /// moves `column` (the sums down the ring) from the ring's old row to the new one. Exact for values
    /// on a grid of powers of two, as code values and their halvings are, so the order does not matter.
    private static func boxSums(_ source: UnsafePointer<Double>, replacing ring: UnsafeMutablePointer<Double>,
                                column: UnsafeMutablePointer<Double>, count: Int) {
        var sum = 0.0
        for k in 0..<side { sum += source[k] }
        column[0] += sum - ring[0]
        ring[0] = sum
        for x in 1..<count {
            sum += source[x + side - 1] - source[x - 1]
            column[x] += sum - ring[x]
            ring[x] = sum
        }
    }

    /// The Gaussian-weighted sums of every `side` consecutive values of `source`.
    private static func gaussianSums(_ source: UnsafePointer<Double>, into out: UnsafeMutablePointer<Double>, count: Int) {
        gaussianCombine({ source + $0 }, into: out, count: count)
    }

    /// The Gaussian means of moment `moment` over the window rows starting at input row `top` (their
    /// row sums in the ring).
    private static func verticalGaussian(_ ring: UnsafePointer<Double>, top: Int, moment: Int, moments: Int, stride: Int,
                                         into out: UnsafeMutablePointer<Double>) {
        gaussianCombine({ ring + (((top + $0) % side) * moments + moment) * stride }, into: out, count: stride)
    }

    /// `out[x] = Σₖ tapₖ · rows(k)[x]` over the `side` taps: the centre, then each symmetric pair of taps
    /// from the outside in, summed in a register per `x`.
    @inline(__always)
    private static func gaussianCombine(_ rows: (Int) -> UnsafePointer<Double>, into out: UnsafeMutablePointer<Double>, count: Int) {
        let half = side / 2, centre = rows(half)
        LuminancePlane.gaussian.withUnsafeBufferPointer { taps in
            for x in 0..<count {
                var sum = taps[half] * centre[x]
                for k in 0..<half { sum += taps[k] * (rows(k)[x] + rows(side - 1 - k)[x]) }
                out[x] = sum
            }
        }
    }
}
