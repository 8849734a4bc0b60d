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
    func forEachRow(in rows: Range<Int>, _ body: (_ y: Int, _ row: Row) -> Void) {
        let side = Self.side, count = momentCount, stride = outWidth
        var product = [Double](repeating: 0, count: width)
        var ringBox = [Double](repeating: 0, count: side * count * stride)
        var ringGaussian = ringBox
        var box = [Double](repeating: 0, count: count * stride)
        var gaussian = box
        for input in rows.lowerBound..<(rows.upperBound + side - 1) {
            let slot = input % side
            for moment in 0..<count {
                fillProduct(moment, row: input, into: &product)
                let offset = (slot * count + moment) * stride
                product.withUnsafeBufferPointer { source in
                    ringBox.withUnsafeMutableBufferPointer { Self.boxSums(source, into: $0.baseAddress! + offset, count: stride) }
                    ringGaussian.withUnsafeMutableBufferPointer { Self.gaussianSums(source, into: $0.baseAddress! + offset, count: stride) }
                }
            }
            let top = input - side + 1
            guard top >= rows.lowerBound else { continue }
            ringBox.withUnsafeBufferPointer { ring in
                box.withUnsafeMutableBufferPointer { Self.verticalBox(ring, top: top, moments: count, stride: stride, into: $0) }
            }
            ringGaussian.withUnsafeBufferPointer { ring in
                gaussian.withUnsafeMutableBufferPointer { Self.verticalGaussian(ring, top: top, moments: count, stride: stride, into: $0) }
            }
            box.withUnsafeBufferPointer { box in
                gaussian.withUnsafeBufferPointer { gaussian in body(top, Row(box: box, gaussian: gaussian)) }
            }
        }
    }

    /// Row `row` of moment `moment`'s plane: a plane's values, or the product of a pair's.
    private func fillProduct(_ moment: Int, row: Int, into product: inout [Double]) {
        let start = row * width
        if moment < planes.count {
            planes[moment].values.withUnsafeBufferPointer { product.replaceSubrange(0..<width, with: $0[start..<(start + width)]) }
            return
        }
        let (i, j) = pairs[moment - planes.count]
        planes[i].values.withUnsafeBufferPointer { first in
            planes[j].values.withUnsafeBufferPointer { second in
                product.withUnsafeMutableBufferPointer { out in
                    for x in 0..<width { out[x] = first[start + x] * second[start + x] }
                }
            }
        }
    }

    /// The sums of every `side` consecutive values of `source`, a running sum (exact for values on a
    /// grid of powers of two, as code values and their halvings are).
    private static func boxSums(_ source: UnsafeBufferPointer<Double>, into out: UnsafeMutablePointer<Double>, count: Int) {
        var sum = 0.0
        for k in 0..<side { sum += source[k] }
        out[0] = sum
        for x in 1..<count {
            sum += source[x + side - 1] - source[x - 1]
            out[x] = sum
        }
    }

    /// The Gaussian-weighted sums of every `side` consecutive values of `source` (the taps are symmetric).
    private static func gaussianSums(_ source: UnsafeBufferPointer<Double>, into out: UnsafeMutablePointer<Double>, count: Int) {
        let taps = LuminancePlane.gaussian, half = side / 2
        let tapCentre = taps[half]
        for x in 0..<count { out[x] = tapCentre * source[x + half] }
        for k in 0..<half {
            let tap = taps[k], mirror = side - 1 - k
            for x in 0..<count { out[x] += tap * (source[x + k] + source[x + mirror]) }
        }
    }

    /// The box means of the window rows starting at input row `top` (their row sums in the ring).
    private static func verticalBox(_ ring: UnsafeBufferPointer<Double>, top: Int, moments: Int, stride: Int,
                                    into out: UnsafeMutableBufferPointer<Double>) {
        let scale = 1 / Double(side * side)
        for moment in 0..<moments {
            let target = moment * stride
            for x in 0..<stride { out[target + x] = 0 }
            for k in 0..<side {
                let source = (((top + k) % side) * moments + moment) * stride
                for x in 0..<stride { out[target + x] += ring[source + x] }
            }
            for x in 0..<stride { out[target + x] *= scale }
        }
    }

    /// The Gaussian means of the window rows starting at input row `top` (their row sums in the ring).
    private static func verticalGaussian(_ ring: UnsafeBufferPointer<Double>, top: Int, moments: Int, stride: Int,
                                         into out: UnsafeMutableBufferPointer<Double>) {
        let taps = LuminancePlane.gaussian, half = side / 2
        for moment in 0..<moments {
            let target = moment * stride
            let centre = (((top + half) % side) * moments + moment) * stride
            for x in 0..<stride { out[target + x] = taps[half] * ring[centre + x] }
            for k in 0..<half {
                let upper = (((top + k) % side) * moments + moment) * stride
                let lower = (((top + side - 1 - k) % side) * moments + moment) * stride
                let tap = taps[k]
                for x in 0..<stride { out[target + x] += tap * (ring[upper + x] + ring[lower + x]) }
            }
        }
    }
}
