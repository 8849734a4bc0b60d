import CameraCore

/// The beauty filter's two passes over an nv12 frame: each block's mean luma and whether its
/// colour may be skin, then the skin pixels' luma plane smoothed in place; chroma is left as it
/// is, as the bgra8 path keeps hue. Luma is scaled from the range's black…white to 0…1.
struct NV12Skin: SkinPasses {
    private let buffer: PixelBuffer
    private let range: YCbCrRange
    private let black: Float
    private let scale: Float

    init(_ buffer: PixelBuffer, range: YCbCrRange) {
        self.buffer = buffer
        self.range = range
        (black, scale) = range == .video ? (16, 219) : (0, 255)
    }

    /// Fills `planes`' block luma and skin flags from the blocks' mean luma and chroma.
    func fillBlocks(_ planes: GuidedFilterPlanes) {
        let blockSize = planes.scale, lowWidth = planes.lowWidth, width = buffer.width, height = buffer.height
        let luma = buffer.baseAddress(plane: 0).assumingMemoryBound(to: UInt8.self), lumaStride = buffer.planes[0].bytesPerRow
        let chroma = buffer.baseAddress(plane: 1).assumingMemoryBound(to: UInt8.self), chromaStride = buffer.planes[1].bytesPerRow
        for lowY in 0..<planes.lowHeight {
            let rows = lowY * blockSize..<min((lowY + 1) * blockSize, height)
            for lowX in 0..<lowWidth {
                let columns = lowX * blockSize..<min((lowX + 1) * blockSize, width)
                var lumaSum = 0, blueSum = 0, redSum = 0, chromaCount = 0
                for y in rows {
                    for x in columns { lumaSum += Int(luma[y * lumaStride + x]) }
                }
                for y in stride(from: rows.lowerBound, to: rows.upperBound, by: 2) {
                    for x in stride(from: columns.lowerBound, to: columns.upperBound, by: 2) {
                        blueSum += Int(chroma[y / 2 * chromaStride + x])
                        redSum += Int(chroma[y / 2 * chromaStride + x + 1])
                        chromaCount += 1
                    }
                }
                let meanLuma = Float(lumaSum) / Float(rows.count * columns.count)
                planes.blockLuma[lowY * lowWidth + lowX] = (meanLuma - black) / scale
                let colour = BT709.decode(y: UInt8(meanLuma.rounded()), cb: UInt8(blueSum / chromaCount), cr: UInt8(redSum / chromaCount), range: range)
                planes.skinBlocks[lowY * lowWidth + lowX] =
                    BeautyFilter.skinDistance(red: Float(colour.red), green: Float(colour.green), blue: Float(colour.blue)) < BeautyFilter.blockReach
            }
        }
    }

    /// Moves the luma of each skin pixel of row `y` within `columns` towards the guided filter's
    /// `fits` by `amount` times its skin weight; other pixels are left exactly as they are.
    func smooth(row y: Int, columns: Range<Int>, fits: GuidedFilterPlanes.Fits, amount: Float) {
        let row = buffer.baseAddress(plane: 0).assumingMemoryBound(to: UInt8.self) + y * buffer.planes[0].bytesPerRow
        let pairs = buffer.baseAddress(plane: 1).assumingMemoryBound(to: UInt8.self) + y / 2 * buffer.planes[1].bytesPerRow
        let inverseScale = 1 / scale
        for x in columns {
            let colour = BT709.decode(y: row[x], cb: pairs[x & ~1], cr: pairs[x | 1], range: range)
            let weight = amount * BeautyFilter.skinWeight(red: Float(colour.red), green: Float(colour.green), blue: Float(colour.blue))
            guard weight > 0 else { continue }
            let luma = (Float(row[x]) - black) * inverseScale
            row[x] = BeautyFilter.byte(Float(row[x]) + weight * scale * (fits.slopes[x] * luma + fits.offsets[x] - luma))
        }
    }
}
