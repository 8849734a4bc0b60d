import CameraCore

/// Reads one 8-bit pixel format for the analysis: whole rows' mean luma (SIMD, every pixel) and
/// single pixels as R'G'B' plus full-range Rec. 709 luma. The analysis is generic over it, so
/// each format gets its own specialised loops.
protocol PixelSampler {
    /// Mean encoded luma (0…1) of `columns` in row `y`.
    func rowMean(y: Int, columns: Range<Int>) -> Float
    func sample(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, luma: UInt8)
}

/// The sampler for `buffer`'s format as an existential, for code off the hot path.
func makeSampler(_ buffer: PixelBuffer) throws(MeteringError) -> any PixelSampler {
    switch buffer.format {
    case .bgra8: BGRASampler(buffer)
    case .gray8: GraySampler(buffer)
    case .nv12(.video): NV12Sampler<VideoRange>(buffer)
    case .nv12(.full): NV12Sampler<FullRange>(buffer)
    case .yuyv422: YUYVSampler(buffer)
    case .bayer16: throw .unsupportedFormat(buffer.format)
    }
}

/// Plane 0 of a buffer as bytes.
struct PlaneBytes {
    let base: UnsafePointer<UInt8>
    let bytesPerRow: Int

    init(_ buffer: PixelBuffer, plane: Int) {
        base = UnsafePointer(buffer.baseAddress(plane: plane).assumingMemoryBound(to: UInt8.self))
        bytesPerRow = buffer.planes[plane].bytesPerRow
    }

    @inline(__always) func row(_ y: Int) -> UnsafePointer<UInt8> { base + y &* bytesPerRow }
}

struct BGRASampler: PixelSampler {
    let pixels: PlaneBytes
    init(_ buffer: PixelBuffer) { pixels = PlaneBytes(buffer, plane: 0) }

    func rowMean(y: Int, columns: Range<Int>) -> Float {
        let sums = RowSums.bgra(UnsafeRawPointer(pixels.row(y) + columns.lowerBound * 4), count: columns.count)
        return (BT709.redWeight * Float(sums.red) + BT709.greenWeight * Float(sums.green) + BT709.blueWeight * Float(sums.blue))
            / Float(columns.count) / 255
    }

    @inline(__always)
    func sample(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, luma: UInt8) {
        let pixel = pixels.row(y) + x &* 4
        let (blue, green, red) = (pixel[0], pixel[1], pixel[2])
        return (red, green, blue, BT709.luma8(red: red, green: green, blue: blue))
    }
}

struct GraySampler: PixelSampler {
    let pixels: PlaneBytes
    init(_ buffer: PixelBuffer) { pixels = PlaneBytes(buffer, plane: 0) }

    func rowMean(y: Int, columns: Range<Int>) -> Float {
        Float(RowSums.luma(UnsafeRawPointer(pixels.row(y) + columns.lowerBound), count: columns.count, stride: 1)) / Float(columns.count) / 255
    }

    @inline(__always)
    func sample(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, luma: UInt8) {
        let value = pixels.row(y)[x]
        return (value, value, value, value)
    }
}

/// A Y'CbCr range known at compile time, so each range gets its own specialised loops.
protocol StaticRange { static var range: YCbCrRange { get } }
enum VideoRange: StaticRange { static var range: YCbCrRange { .video } }
enum FullRange: StaticRange { static var range: YCbCrRange { .full } }

struct NV12Sampler<Range: StaticRange>: PixelSampler {
    let luma: PlaneBytes
    let chroma: PlaneBytes
    init(_ buffer: PixelBuffer) {
        luma = PlaneBytes(buffer, plane: 0)
        chroma = PlaneBytes(buffer, plane: 1)
    }

    func rowMean(y: Int, columns: Swift.Range<Int>) -> Float {
        let sum = RowSums.luma(UnsafeRawPointer(luma.row(y) + columns.lowerBound), count: columns.count, stride: 1)
        return fullRangeMean(sum, count: columns.count, range: Range.range)
    }

    @inline(__always)
    func sample(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, luma: UInt8) {
        let pair = chroma.row(y / 2) + (x & ~1)
        return decode(luma.row(y)[x], cb: pair[0], cr: pair[1], range: Range.range)
    }
}

struct YUYVSampler: PixelSampler {
    let pixels: PlaneBytes
    init(_ buffer: PixelBuffer) { pixels = PlaneBytes(buffer, plane: 0) }

    func rowMean(y: Int, columns: Range<Int>) -> Float {
        let sum = RowSums.luma(UnsafeRawPointer(pixels.row(y) + columns.lowerBound * 2), count: columns.count, stride: 2)
        return fullRangeMean(sum, count: columns.count, range: .video)
    }

    @inline(__always)
    func sample(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, luma: UInt8) {
        let pair = pixels.row(y) + (x & ~1) &* 2
        return decode(pair[(x & 1) * 2], cb: pair[1], cr: pair[3], range: .video)
    }
}

/// The full-range mean (0…1) of `count` luma values summing to `sum` (video range: 16 → 0, 235 → 1).
private func fullRangeMean(_ sum: Int, count: Int, range: YCbCrRange) -> Float {
    let mean = Float(sum) / Float(count)
    return range == .video ? min(max((mean - 16) / 219, 0), 1) : mean / 255
}

@inline(__always)
private func decode(_ y: UInt8, cb: UInt8, cr: UInt8, range: YCbCrRange) -> (red: UInt8, green: UInt8, blue: UInt8, luma: UInt8) {
    let rgb = BT709.decode(y: y, cb: cb, cr: cr, range: range)
    return (rgb.red, rgb.green, rgb.blue, range == .video ? LumaRange.fullRange(videoLuma: y) : y)
}
