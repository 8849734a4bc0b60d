/// Finds a frame's global translation against the reference, coarse to fine, in whole 2×2 cells.
///
/// ```
///  reference cells ─► ÷2 ─► ÷2 ─► ÷8: search ±topRadius cells ─┐
///  frame cells ─────► ÷2 ─► ÷2 ─► ÷8 ──────────────────────────┘
///        each finer level: twice the coarser shift, searched ±1 cell
/// ```
///
/// The cost of a shift is the mean absolute difference over the reference cells that every
/// candidate of that level keeps inside the frame. A candidate replaces the predicted shift only
/// when its cost is lower by more than `significance` standard errors of the prediction's (from
/// the spread of its differences): noise alone, or a scene flat in one direction, leaves a tripod
/// bracket at exactly (0, 0).
struct BracketAligner {
    /// Downsamplings above the cell image: the top level is 1/8 of the cells (1/16 of the pixels).
    static let levels = 3
    /// The shift reached at the top level, in cells of the full-resolution cell image: 16 cells
    /// is ±32 pixels, before the finer levels add their ±1 each.
    static let reach = 16
    /// Standard errors of the cost difference a candidate must gain over the prediction: the best of
    /// up to 81 candidates in pure noise gains about 2.5.
    static let significance: Float = 5

    /// The pixel shift of `frame` against `reference`, two cell images of the same size.
    static func shift(of frame: FloatPlane, against reference: FloatPlane) -> BayerShift {
        var (framePyramid, referencePyramid) = ([frame], [reference])
        while framePyramid.count <= levels, min(framePyramid.last!.width, framePyramid.last!.height) >= 32 {
            framePyramid.append(framePyramid.last!.halved())
            referencePyramid.append(referencePyramid.last!.halved())
        }
        let top = framePyramid.count - 1
        var (dx, dy) = (0, 0)
        for level in stride(from: top, through: 0, by: -1) {
            if level < top { (dx, dy) = (2 * dx, 2 * dy) }
            let radius = level == top ? max(1, reach >> top) : 1
            (dx, dy) = search(framePyramid[level], referencePyramid[level], around: (dx, dy), radius: radius)
        }
        return BayerShift(x: 2 * dx, y: 2 * dy)
    }

    /// The candidate within `radius` of `centre` with the lowest cost, or `centre` unless one beats it clearly.
    private static func search(_ frame: FloatPlane, _ reference: FloatPlane, around centre: (Int, Int),
                               radius: Int) -> (Int, Int) {
        let (minX, maxX) = (centre.0 - radius, centre.0 + radius)
        let (minY, maxY) = (centre.1 - radius, centre.1 + radius)
        // Reference cells whose every candidate lies inside the frame.
        let xs = max(0, -minX)..<min(reference.width, frame.width - maxX)
        let ys = max(0, -minY)..<min(reference.height, frame.height - maxY)
        guard !xs.isEmpty, !ys.isEmpty else { return centre }
        let (centreCost, centreSquare) = cost(frame, reference, shift: centre, xs: xs, ys: ys)
        var (best, bestCost) = (centre, centreCost)
        for sy in minY...maxY {
            for sx in minX...maxX where (sx, sy) != centre {
                let candidate = cost(frame, reference, shift: (sx, sy), xs: xs, ys: ys).mean
                if candidate < bestCost { (best, bestCost) = ((sx, sy), candidate) }
            }
        }
        // The difference of two costs over the same cells: at most √2 × one cost's standard error.
        let spread = max(centreSquare - centreCost * centreCost, 0)
        let margin = significance * (2 * spread / Float(xs.count * ys.count)).squareRoot()
        return bestCost < centreCost - margin ? best : centre
    }

    /// The mean absolute difference, and the mean squared difference, between the reference's cells
    /// `xs`×`ys` and the frame's cells `shift` away.
    private static func cost(_ frame: FloatPlane, _ reference: FloatPlane, shift: (Int, Int), xs: Range<Int>,
                             ys: Range<Int>) -> (mean: Float, square: Float) {
        frame.values.withUnsafeBufferPointer { frameValues in
            reference.values.withUnsafeBufferPointer { referenceValues in
                var sums = SIMD8<Float>.zero, squares = SIMD8<Float>.zero
                var tail: Float = 0, tailSquares: Float = 0
                let count = xs.count, vectorCount = count & ~7
                for y in ys {
                    let a = referenceValues.baseAddress! + y * reference.width + xs.lowerBound
                    let b = frameValues.baseAddress! + (y + shift.1) * frame.width + xs.lowerBound + shift.0
                    let rawA = UnsafeRawPointer(a), rawB = UnsafeRawPointer(b)
                    for x in stride(from: 0, to: vectorCount, by: 8) {
                        let difference = rawA.loadUnaligned(fromByteOffset: x * 4, as: SIMD8<Float>.self)
                            - rawB.loadUnaligned(fromByteOffset: x * 4, as: SIMD8<Float>.self)
                        sums += difference.replacing(with: -difference, where: difference .< 0)
                        squares += difference * difference
                    }
                    for x in vectorCount..<count {
                        tail += abs(a[x] - b[x])
                        tailSquares += (a[x] - b[x]) * (a[x] - b[x])
                    }
                }
                let cells = Float(count * ys.count)
                return ((sums.sum() + tail) / cells, (squares.sum() + tailSquares) / cells)
            }
        }
    }
}
