import CameraCore

/// An nv12 frame as a JPEG stores it: separate Y, Cb and Cr planes (4:2:0) in BT.601 full range,
/// in memory kept from frame to frame.
///
/// nv12 frames hold BT.709 Y'CbCr (video or full range) with Cb and Cr interleaved; JFIF defines a
/// JPEG's Y'CbCr as BT.601 full range, and libjpeg-turbo wants the chroma planar. Passing the
/// planes through unchanged would shift every colour (video-range black would decode as grey), so
/// one pass converts them, exact up to rounding: both matrices are linear, so each 2×2 block's new
/// luma is its old luma scaled plus a term of the block's chroma, and its new chroma a mix of the
/// old. At 1080p the pass takes 2–3 ms of CPU, beside 9–12 ms for the compression itself.
final class JFIFPlanes {
    private var storage: [UInt8] = []
    /// The luma term of each column's chroma pair, for the current row pair.
    private var shifts: [Int32] = []
    private var width = 0
    private var height = 0

    /// Converts `buffer` (nv12 in `range`) into the planes.
    func load(_ buffer: PixelBuffer, range: YCbCrRange) {
        let width = buffer.width, height = buffer.height
        (self.width, self.height) = (width, height)
        let chromaWidth = width / 2, chromaHeight = height / 2
        let count = width * height + 2 * chromaWidth * chromaHeight
        if storage.count != count { storage = [UInt8](repeating: 0, count: count) }
        let matrix = range == .video ? Self.videoRange : Self.fullRange
        let lumaSource = buffer.baseAddress(plane: 0).assumingMemoryBound(to: UInt8.self)
        let chromaSource = buffer.baseAddress(plane: 1).assumingMemoryBound(to: UInt8.self)
        let lumaStride = buffer.planes[0].bytesPerRow, chromaStride = buffer.planes[1].bytesPerRow
        if shifts.count != width { shifts = [Int32](repeating: 0, count: width) }
        storage.withUnsafeMutableBufferPointer { planes in
            shifts.withUnsafeMutableBufferPointer { shifts in
                let luma = planes.baseAddress!
                let cbPlane = luma + width * height, crPlane = cbPlane + chromaWidth * chromaHeight
                for row in 0..<chromaHeight {
                    Self.convertChroma(chromaSource + row * chromaStride, matrix, cb: cbPlane + row * chromaWidth,
                                       cr: crPlane + row * chromaWidth, lumaShifts: shifts)
                    for lumaRow in (2 * row)...(2 * row + 1) {
                        Self.convertLuma(lumaSource + lumaRow * lumaStride, matrix.lumaScale, shifts,
                                         into: luma + lumaRow * width)
                    }
                }
            }
        }
    }

    /// Converts one row of interleaved chroma pairs into Cb and Cr, and keeps for each column the
    /// term its pair adds to the luma of the 2×2 block.
    @inline(__always)
    private static func convertChroma(_ source: UnsafePointer<UInt8>, _ matrix: Matrix, cb: UnsafeMutablePointer<UInt8>,
                                      cr: UnsafeMutablePointer<UInt8>, lumaShifts: UnsafeMutableBufferPointer<Int32>) {
        for column in 0..<lumaShifts.count / 2 {
            let blue = Int32(source[2 &* column]) &- 128, red = Int32(source[2 &* column &+ 1]) &- 128
            let shift = matrix.lumaFromCb &* blue &+ matrix.lumaFromCr &* red &+ matrix.lumaOffset
            lumaShifts[2 &* column] = shift
            lumaShifts[2 &* column &+ 1] = shift
            cb[column] = clamp(matrix.cbFromCb &* blue &+ matrix.cbFromCr &* red &+ chromaOffset)
            cr[column] = clamp(matrix.crFromCb &* blue &+ matrix.crFromCr &* red &+ chromaOffset)
        }
    }

    /// Converts one row of luma, each pixel scaled and shifted by its block's chroma term.
    @inline(__always)
    private static func convertLuma(_ source: UnsafePointer<UInt8>, _ scale: Int32, _ shifts: UnsafeMutableBufferPointer<Int32>,
                                    into target: UnsafeMutablePointer<UInt8>) {
        for x in 0..<shifts.count {
            target[x] = clamp(Int32(source[x]) &* scale &+ shifts[x])
        }
    }

    /// Calls `body` with the Y, Cb and Cr plane pointers and their row strides, as
    /// `tjCompressFromYUVPlanes` takes them.
    func withPlanes<R>(_ body: (UnsafeMutablePointer<UnsafePointer<UInt8>?>, UnsafePointer<Int32>) -> R) -> R {
        storage.withUnsafeBufferPointer { planes in
            let luma = planes.baseAddress!
            let cb = luma + width * height, cr = cb + (width / 2) * (height / 2)
            var pointers: [UnsafePointer<UInt8>?] = [luma, cb, cr]
            let strides = [Int32(width), Int32(width / 2), Int32(width / 2)]
            return pointers.withUnsafeMutableBufferPointer { pointers in
                strides.withUnsafeBufferPointer { strides in body(pointers.baseAddress!, strides.baseAddress!) }
            }
        }
    }

    // MARK: The conversion in 16-bit fixed point

    private static let fractionBits: Int32 = 16
    private static let one = Double(1 << fractionBits)
    /// 128 plus a half for rounding, in fixed point.
    private static let chromaOffset = Int32(128 << fractionBits) + Int32(1 << (fractionBits - 1))

    /// Integer coefficients taking BT.709 Y' (less its black level) and Cb, Cr (less 128) to
    /// BT.601 full-range Y', Cb, Cr.
    private struct Matrix {
        let lumaScale, lumaOffset, lumaFromCb, lumaFromCr: Int32
        let cbFromCb, cbFromCr, crFromCb, crFromCr: Int32
    }

    private static let videoRange = matrix(black: 16, lumaScale: 255.0 / 219, chromaScale: 255.0 / 224)
    private static let fullRange = matrix(black: 0, lumaScale: 1, chromaScale: 1)

    /// Derives the coefficients from the two standards' luma weights. With Pb, Pr the BT.709
    /// colour differences (Pb = (B' − Y')/1.8556, Pr = (R' − Y')/1.5748):
    /// Y'₆₀₁ = Y'₇₀₉ + 1.5748·(0.299 − 0.587·Kr/Kg)·Pr + 1.8556·(0.114 − 0.587·Kb/Kg)·Pb, and
    /// Cb₆₀₁ = (B' − Y'₆₀₁)/1.772, Cr₆₀₁ = (R' − Y'₆₀₁)/1.402.
    private static func matrix(black: Int32, lumaScale: Double, chromaScale: Double) -> Matrix {
        let kr = Double(BT709.redWeight), kg = Double(BT709.greenWeight), kb = Double(BT709.blueWeight)
        let redFromPr = 2 * (1 - kr), blueFromPb = 2 * (1 - kb)
        let lumaFromPr = redFromPr * (0.299 - 0.587 * kr / kg)
        let lumaFromPb = blueFromPb * (0.114 - 0.587 * kb / kg)
        func fixed(_ value: Double) -> Int32 { Int32((value * one).rounded()) }
        let scale = fixed(lumaScale)
        return Matrix(
            lumaScale: scale, lumaOffset: -black * scale + Int32(1 << (fractionBits - 1)),
            lumaFromCb: fixed(lumaFromPb * chromaScale), lumaFromCr: fixed(lumaFromPr * chromaScale),
            cbFromCb: fixed((blueFromPb - lumaFromPb) / 1.772 * chromaScale), cbFromCr: fixed(-lumaFromPr / 1.772 * chromaScale),
            crFromCb: fixed(-lumaFromPb / 1.402 * chromaScale), crFromCr: fixed((redFromPr - lumaFromPr) / 1.402 * chromaScale))
    }

    @inline(__always)
    private static func clamp(_ fixedPoint: Int32) -> UInt8 {
        let value = fixedPoint &>> fractionBits
        return UInt8(truncatingIfNeeded: value < 0 ? 0 : value > 255 ? 255 : value)
    }
}
