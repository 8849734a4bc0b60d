import CameraCore
import CExif
import Foundation

/// Builds a photo's EXIF block with libexif and places it in a JPEG file.
///
/// A JPEG with EXIF is SOI, then the APP1 segment (`FF E1`, a 16-bit length, `Exif\0\0` and a
/// little-endian TIFF structure: IFD0 with the camera and orientation, the EXIF IFD with the
/// exposure, the GPS IFD, IFD1 with the thumbnail), then the rest of the JPEG unchanged.
public enum ExifWriter {
    /// The most bytes an APP1 segment holds after its marker and length field.
    public static let maximumPayload = 65_533

    /// The APP1 segment, marker included, describing a `pixelSize` image with `metadata` and an
    /// optional embedded JPEG `thumbnail` (as `JPEGEncoder.encodedThumbnail` makes).
    public static func app1Segment(for metadata: ExifMetadata, pixelSize: PixelSize,
                                   thumbnail: [UInt8]?) throws(CodecError) -> [UInt8] {
        let fields = try Self.fields(metadata, pixelSize: pixelSize, hasThumbnail: thumbnail != nil)
        let payload = try serialize(fields, thumbnail: thumbnail.map(withoutAPP0))
        guard payload.count <= maximumPayload else {
            throw CodecError(.tooLarge, "the EXIF block is \(payload.count) bytes but a JPEG APP1 segment holds at most"
                + " \(maximumPayload) — shorten the user comment or artist, or leave out the thumbnail")
        }
        let length = payload.count + 2
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    /// `jpeg` with `segment` inserted right after its SOI marker, in one new buffer; the encoded
    /// image itself is copied, never decoded.
    public static func inserting(_ segment: [UInt8], intoJPEG jpeg: [UInt8]) throws(CodecError) -> [UInt8] {
        try jpeg.withUnsafeBufferPointer { jpeg throws(CodecError) in try inserting(segment, into: jpeg) }
    }

    static func inserting(_ segment: [UInt8], into jpeg: UnsafeBufferPointer<UInt8>) throws(CodecError) -> [UInt8] {
        guard jpeg.count >= 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else {
            throw CodecError(.wrongFormat, "cannot add EXIF: the \(jpeg.count) bytes do not start with a JPEG SOI marker"
                + " (FF D8) — pass a whole JPEG file")
        }
        let total = jpeg.count + segment.count
        return [UInt8](unsafeUninitializedCapacity: total) { output, count in
            let start = output.baseAddress!, jpegStart = jpeg.baseAddress!
            start.initialize(from: jpegStart, count: 2)
            (start + 2).initialize(from: segment, count: segment.count)
            (start + 2 + segment.count).initialize(from: jpegStart + 2, count: jpeg.count - 2)
            count = total
        }
    }

    /// One tag with its value, in the IFD it belongs to.
    struct Field {
        let ifd: ExifIfd
        let tag: ExifTag
        let value: ExifValue

        init(_ ifd: ExifIfd, _ tag: ExifTag, _ value: ExifValue) {
            self.ifd = ifd
            self.tag = tag
            self.value = value
        }
    }

    /// The TIFF structure libexif writes for `fields` (sorted by IFD and tag, as TIFF requires)
    /// and the thumbnail, after the `Exif\0\0` header.
    private static func serialize(_ fields: [Field], thumbnail: [UInt8]?) throws(CodecError) -> [UInt8] {
        guard let data = exif_data_new() else { throw outOfMemory }
        defer { exif_data_unref(data) }
        guard let memory = exif_mem_new_default() else { throw outOfMemory }
        defer { exif_mem_unref(memory) }
        exif_data_set_byte_order(data, EXIF_BYTE_ORDER_INTEL)
        let sorted = fields.sorted { ($0.ifd.rawValue, $0.tag.rawValue) < ($1.ifd.rawValue, $1.tag.rawValue) }
        for field in sorted {
            guard let entry = exif_entry_new_mem(memory) else { throw outOfMemory }
            defer { exif_entry_unref(entry) }
            let bytes = field.value.bytes
            guard let storage = copy(bytes, into: memory) else { throw outOfMemory }
            entry.pointee.tag = field.tag
            entry.pointee.format = field.value.format
            entry.pointee.components = UInt(field.value.components)
            entry.pointee.data = storage
            entry.pointee.size = UInt32(bytes.count)
            exif_content_add_entry(cexif_content(data, field.ifd), entry)
        }
        if let thumbnail {
            // libexif frees the thumbnail with the data, through the same default allocator.
            guard let storage = copy(thumbnail, into: memory) else { throw outOfMemory }
            data.pointee.data = storage
            data.pointee.size = UInt32(thumbnail.count)
        }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt32 = 0
        exif_data_save_data(data, &output, &size)
        guard let output, size > 0 else { throw outOfMemory }
        defer { free(output) }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }

    private static func copy(_ bytes: [UInt8], into memory: OpaquePointer) -> UnsafeMutablePointer<UInt8>? {
        guard let storage = exif_mem_alloc(memory, ExifLong(bytes.count)) else { return nil }
        storage.copyMemory(from: bytes, byteCount: bytes.count)
        return storage.assumingMemoryBound(to: UInt8.self)
    }

    /// An EXIF thumbnail carries no APPn segments, so the JFIF APP0 libjpeg-turbo writes is dropped.
    private static func withoutAPP0(_ jpeg: [UInt8]) -> [UInt8] {
        guard jpeg.count > 6, jpeg[2] == 0xFF, jpeg[3] == 0xE0 else { return jpeg }
        let end = 4 + (Int(jpeg[4]) << 8 | Int(jpeg[5]))
        return end <= jpeg.count ? Array(jpeg[0..<2] + jpeg[end...]) : jpeg
    }

    private static let outOfMemory = CodecError(.encodingFailed, "libexif cannot build the EXIF block: out of memory"
        + " — free memory and try again")
}
