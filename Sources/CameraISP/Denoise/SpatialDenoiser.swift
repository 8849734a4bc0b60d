import CameraCore

/// Takes a developed frame's noise out of each frame on its own: luma smoothed where nothing
/// stands above the noise, chroma smoothed strongly and changed only at luma edges.
///
/// ```
///  image ─► block means of Y, Y², L, L², u, v, L·u, L·v (4×4 blocks, one pass over the image)
///        ─► LocalLinearModels: per block, Y' = a·Y + b and u' = a_u·L' + b_u (whole grid, small)
///        ─► each pixel: the models of its four nearest blocks, bilinearly, applied (one pass)
/// ```
///
/// (L = log2(Y + k), u = (B − Y)/(Y + k), v = (R − Y)/(Y + k); `LocalLinearModels` says why.)
/// A fast guided filter (He & Sun, 2015) whose statistics are block means rather than a
/// subsampled image, so they count every pixel; the window is 3×3 blocks (12 pixels) and the
/// models' average another, so chroma is smoothed over about 20 pixels. The image is
/// changed in place, clipped to 0…`clipLevel` so that a blown highlight stays white. Both passes
/// over the image run in stripes of rows on a `StripePool`.
struct SpatialDenoiser {
    /// Pixels along each side of a block.
    static let side = 4
    private var models = LocalLinearModels()
    /// Per stripe, one block row's column sums: a plane of `stride` values per statistic.
    private var columnSums: [Float] = []
    /// Per stripe, the models of two block rows, each bilinearly widened to one value per column.
    private var widened: [WidenedModels] = []

    /// Denoises `image` in place, its noise being `noise`, in stripes of rows on `stripes`.
    mutating func apply(_ image: inout LinearImage, noise: DevelopedNoise, stripes: StripePool) {
        let blocks = (width: image.stride / Self.side, height: (image.height + Self.side - 1) / Self.side)
        models.resize(width: blocks.width, height: blocks.height)
        let count = LocalLinearModels.Statistic.allCases.count * image.stride
        let sumStripes = stripes.stripeCount(rows: blocks.height)
        if columnSums.count != sumStripes * count { columnSums = [Float](repeating: 0, count: sumStripes * count) }
        gatherStatistics(image, floor: noise.floor, stripes: stripes)
        models.fit(noise: noise)
        let rowStripes = stripes.stripeCount(rows: image.height)
        if widened.count != rowStripes { widened = [WidenedModels](repeating: WidenedModels(), count: rowStripes) }
        let (models, clip, height, floor, stride) = (models.models, image.clipLevel, image.height, noise.floor, image.stride)
        image.withMutablePlanes { planes in
            widened.withUnsafeMutableBufferPointer { widened in
                stripes.run(rows: height) { stripe, rows in
                    let widened = widened.baseAddress! + stripe
                    widened.pointee.prepare(stride: stride)
                    for y in rows {
                        widened.pointee.withRows(for: y, of: models) { rows in
                            Self.applyRow(planes, at: y * planes.stride, count: planes.stride, models: rows, clip: clip, floor: floor)
                        }
                    }
                }
            }
        }
    }

    /// Fills the statistics grid with each block's means, in stripes of block rows.
    private mutating func gatherStatistics(_ image: LinearImage, floor: Float, stripes: StripePool) {
        let grid = models.statistics.layout
        let planeCount = LocalLinearModels.Statistic.allCases.count
        let sumsLength = planeCount * image.stride
        image.withPlanes { planes in
            columnSums.withUnsafeMutableBufferPointer { sums in
                models.statistics.values.withUnsafeMutableBufferPointer { means in
                    stripes.run(rows: grid.height) { stripe, blockRows in
                        let sums = sums.baseAddress! + stripe * sumsLength
                        for blockRow in blockRows {
                            func row(_ k: Int) -> Int { min(blockRow * Self.side + k, image.height - 1) * planes.stride }
                            Self.sumColumns(planes, rows: (row(0), row(1), row(2), row(3)), count: planes.stride, floor: floor, into: sums)
                            for plane in 0..<planeCount {
                                let source = sums + plane * planes.stride, target = means.baseAddress! + grid.row(plane, blockRow)
                                for block in 0..<grid.width {
                                    let x = block * Self.side
                                    target[block] = (source[x] + source[x + 1] + source[x + 2] + source[x + 3]) * (1.0 / 16)
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Each column's sums of the statistics over the four rows at `rows`.
    @inline(never)
    private static func sumColumns(_ planes: LinearImage.Planes, rows: (Int, Int, Int, Int), count: Int, floor: Float,
                                   into sums: UnsafeMutablePointer<Float>) {
        let weights = DevelopedNoise.luma
        for x in Swift.stride(from: 0, to: count, by: 8) {
            var luma = SIMD8<Float>(), lumaSquared = SIMD8<Float>(), log = SIMD8<Float>(), logSquared = SIMD8<Float>()
            var blue = SIMD8<Float>(), red = SIMD8<Float>(), logBlue = SIMD8<Float>(), logRed = SIMD8<Float>()
            @inline(__always) func add(_ row: Int) {
                let pixels = planes.load(row &+ x)
                let y = pixels.red * weights.x + pixels.green * weights.y + pixels.blue * weights.z
                let lifted = FastMath.nonNegative(y) + floor
                let l = FastMath.log2(lifted), inverse = 1 / lifted
                let u = (pixels.blue - y) * inverse, v = (pixels.red - y) * inverse
                luma += y
                lumaSquared += y * y
                log += l
                logSquared += l * l
                blue += u
                red += v
                logBlue += l * u
                logRed += l * v
            }
            add(rows.0)
            add(rows.1)
            add(rows.2)
            add(rows.3)
            Lanes.store(luma, sums + x)
            Lanes.store(lumaSquared, sums + (count &+ x))
            Lanes.store(log, sums + (2 &* count &+ x))
            Lanes.store(logSquared, sums + (3 &* count &+ x))
            Lanes.store(blue, sums + (4 &* count &+ x))
            Lanes.store(red, sums + (5 &* count &+ x))
            Lanes.store(logBlue, sums + (6 &* count &+ x))
            Lanes.store(logRed, sums + (7 &* count &+ x))
        }
    }

    /// One row's pixels through their models, eight at a time.
    @inline(never)
    private static func applyRow(_ planes: LinearImage.MutablePlanes, at offset: Int, count: Int,
                                 models: WidenedModels.Rows, clip: Float, floor: Float) {
        let weights = DevelopedNoise.luma
        let inverseGreen = 1 / weights.y
        for x in Swift.stride(from: 0, to: count, by: 8) {
            let r = Lanes.load(planes.red + (offset &+ x)), g = Lanes.load(planes.green + (offset &+ x))
            let b = Lanes.load(planes.blue + (offset &+ x))
            let y = r * weights.x + g * weights.y + b * weights.z
            let luma = models.value(.lumaSlope, x) * y + models.value(.lumaOffset, x)
            let lifted = FastMath.nonNegative(luma) + floor, log = FastMath.log2(lifted)
            let blue = luma + (models.value(.blueSlope, x) * log + models.value(.blueOffset, x)) * lifted
            let red = luma + (models.value(.redSlope, x) * log + models.value(.redOffset, x)) * lifted
            let green = (luma - red * weights.x - blue * weights.z) * inverseGreen
            Lanes.store(FastMath.minimum(FastMath.nonNegative(red), clip), planes.red + (offset &+ x))
            Lanes.store(FastMath.minimum(FastMath.nonNegative(green), clip), planes.green + (offset &+ x))
            Lanes.store(FastMath.minimum(FastMath.nonNegative(blue), clip), planes.blue + (offset &+ x))
        }
    }
}
