import CameraCore

/// Photos: a JPEG with its EXIF block and an embedded thumbnail.
extension JPEGEncoder {
    /// The bounds the EXIF thumbnail is fitted into (the size EXIF recommends).
    public static let exifThumbnailBounds = PixelSize(width: 160, height: 120)

    /// A JPEG photo file: SOI, the EXIF APP1 segment describing `exif` (with a thumbnail and the
    /// buffer's dimensions), then the compressed image — assembled in one output buffer.
    public func encode(_ buffer: PixelBuffer, quality: Int, exif: ExifMetadata) throws(CodecError) -> [UInt8] {
        try Self.validate(quality)
        let thumbnail = try encodedThumbnail(of: buffer)
        let segment = try ExifWriter.app1Segment(for: exif, pixelSize: PixelSize(width: buffer.width, height: buffer.height),
                                                 thumbnail: thumbnail)
        return try compress(buffer, quality: quality) { jpeg throws(CodecError) in try ExifWriter.inserting(segment, into: jpeg) }
    }

    /// A small JPEG of `buffer` shrunk by `PreviewScaler`'s box filter to fit `bounds` (aspect
    /// ratio kept, even sides, never enlarged), for EXIF thumbnails and photo lists.
    public func encodedThumbnail(of buffer: PixelBuffer, fitting bounds: PixelSize = exifThumbnailBounds,
                                 quality: Int = 80) throws(CodecError) -> [UInt8] {
        guard bounds.width >= 2, bounds.height >= 2 else {
            throw CodecError(.invalidSetting, "a thumbnail must fit at least 2×2 pixels, not \(bounds) — choose larger bounds")
        }
        let thumbnail: PixelBuffer
        do {
            thumbnail = try PreviewScaler.scaled(buffer, within: bounds)
        } catch {
            throw CodecError(.invalidSetting, "cannot make the thumbnail: \(error)")
        }
        return try encode(thumbnail, quality: quality)
    }
}
