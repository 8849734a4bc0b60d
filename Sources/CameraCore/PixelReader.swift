/// Reads single pixels of an 8-bit pixel format as R'G'B' and full-range luma: the one per-format
/// pixel decoder, behind `rgb8()`, the metering pass and the white-balance statistics.
///
/// Each format has its own reader type, so code generic over `PixelReader` gets a specialised
/// loop per format; `PixelBuffer.pixelReader()` gives one as an existential for code off the hot
/// path.
public protocol PixelReader {
    /// R'G'B' of pixel (`x`, `y`) and its full-range BT.709 luma Y' (Y'CbCr formats: the stored
    /// luma, in full range).
    func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, luma: UInt8)
}

extension PixelBuffer {
    /// The reader for this buffer's format; nil for bayer16, whose pixels hold one colour each and
    /// need a demosaic first.
    public func pixelReader() -> (any PixelReader)? {
        switch format {
        case .bgra8: BGRAReader(self)
        case .gray8: GrayReader(self)
        case .nv12(.video): NV12Reader<VideoRange>(self)
        case .nv12(.full): NV12Reader<FullRange>(self)
        case .yuyv422: YUYVReader(self)
        case .bayer16: nil
        }
    }
}

/// One plane of a buffer as rows of bytes.
public struct PlaneBytes {
    public let base: UnsafePointer<UInt8>
    public let bytesPerRow: Int

    @inlinable
    public init(_ buffer: PixelBuffer, plane: Int) {
        base = UnsafePointer(buffer.baseAddress(plane: plane).assumingMemoryBound(to: UInt8.self))
        bytesPerRow = buffer.planes[plane].bytesPerRow
    }

    /// The first byte of row `y`.
    @inlinable @inline(__always)
    public func row(_ y: Int) -> UnsafePointer<UInt8> { base + y &* bytesPerRow }
}

public struct BGRAReader: PixelReader {
    public let pixels: PlaneBytes
    @inlinable public init(_ buffer: PixelBuffer) { pixels = PlaneBytes(buffer, plane: 0) }

    @inlinable @inline(__always)
    public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, luma: UInt8) {
        let pixel = pixels.row(y) + x &* 4
        let (blue, green, red) = (pixel[0], pixel[1], pixel[2])
        return (red, green, blue, BT709.luma8(red: red, green: green, blue: blue))
    }
}

public struct GrayReader: PixelReader {
    public let pixels: PlaneBytes
    @inlinable public init(_ buffer: PixelBuffer) { pixels = PlaneBytes(buffer, plane: 0) }

    @inlinable @inline(__always)
    public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, luma: UInt8) {
        let value = pixels.row(y)[x]
        return (value, value, value, value)
    }
}

/// A Y'CbCr range known at compile time, so each range gets its own specialised loops.
public protocol StaticYCbCrRange { static var range: YCbCrRange { get } }
public enum VideoRange: StaticYCbCrRange { @inlinable public static var range: YCbCrRange { .video } }
public enum FullRange: StaticYCbCrRange { @inlinable public static var range: YCbCrRange { .full } }

/// nv12 in the range `Range`: each chroma pair covers its 2×2 block of pixels.
public struct NV12Reader<Range: StaticYCbCrRange>: PixelReader {
    public let luma: PlaneBytes
    public let chroma: PlaneBytes

    @inlinable
    public init(_ buffer: PixelBuffer) {
        luma = PlaneBytes(buffer, plane: 0)
        chroma = PlaneBytes(buffer, plane: 1)
    }

    @inlinable @inline(__always)
    public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, luma: UInt8) {
        let pair = chroma.row(y / 2) + (x & ~1)
        return BT709.decodePixel(luma.row(y)[x], cb: pair[0], cr: pair[1], range: Range.range)
    }
}

/// yuyv422, video range: each chroma pair covers two pixels.
public struct YUYVReader: PixelReader {
    public let pixels: PlaneBytes
    @inlinable public init(_ buffer: PixelBuffer) { pixels = PlaneBytes(buffer, plane: 0) }

    @inlinable @inline(__always)
    public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, luma: UInt8) {
        let pair = pixels.row(y) + (x & ~1) &* 2
        return BT709.decodePixel(pair[(x & 1) &* 2], cb: pair[1], cr: pair[3], range: .video)
    }
}

extension BT709 {
    /// R'G'B' of a Y'CbCr sample and its luma in full range.
    @inlinable @inline(__always)
    static func decodePixel(_ y: UInt8, cb: UInt8, cr: UInt8, range: YCbCrRange) -> (red: UInt8, green: UInt8, blue: UInt8, luma: UInt8) {
        let rgb = decode(y: y, cb: cb, cr: cr, range: range)
        return (rgb.red, rgb.green, rgb.blue, range == .video ? fullRangeLuma(video: y) : y)
    }

    /// The full-range value of a video-range luma value (16 → 0, 235 → 255, clamped), rounded
    /// to nearest, in fixed point: 255/219 ≈ 76309/65536. (298/256 is too coarse: it rounds eight
    /// values, e.g. 86 and 232, one step low.)
    @inlinable @inline(__always)
    public static func fullRangeLuma(video value: UInt8) -> UInt8 {
        UInt8(truncatingIfNeeded: min(max(((Int(value) &- 16) &* 76_309 &+ 32_768) >> 16, 0), 255))
    }
}
