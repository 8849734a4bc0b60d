import CameraCore
import Foundation
internal import CTIFF

/// Writes a raw Bayer frame as a DNG (Adobe's Digital Negative 1.4, a TIFF) through libtiff, into
/// memory, so that the photo library saves it atomically as it saves a JPEG.
///
/// Layout: IFD0 is the raw mosaic (NewSubFileType 0, PhotometricInterpretation CFA, 16-bit
/// uncompressed samples as the buffer holds them, right-aligned; BlackLevel and WhiteLevel say which
/// values are used) with the DNG tags; the EXIF IFD holds the exposure; the optional preview (8-bit
/// sRGB, NewSubFileType 1) is IFD0's one SubIFD. Adobe's converter does the reverse (a preview in
/// IFD0, the raw in a SubIFD); the spec allows both. Raw first keeps one layout with or without a
/// preview, and a reader that looks only at IFD0 finds the photo, not a thumbnail.
///
/// Colour: ColorMatrix1 under D65 and AsShotNeutral come from the calibration and the gains the
/// frame was balanced with (`DNGColor`).
public enum DNGWriter {
    /// The DNG file's bytes for the bayer16 `raw` mosaic described by `metadata`, with an optional
    /// bgra8 `preview` of it (any size; it is written uncompressed, so keep it small).
    public static func data(raw: PixelBuffer, metadata: DNGMetadata, preview: PixelBuffer? = nil) throws(CodecError) -> Data {
        let pattern = try validate(raw: raw, metadata: metadata, preview: preview)
        let color = try DNGColor(calibration: metadata.calibration, gains: metadata.whiteBalanceGains)
        let previewBytes = preview.map { $0.width * $0.height * 3 } ?? 0
        let output = try TIFFOutput(expectedSize: raw.width * raw.height * 2 + previewBytes + 65_536)
        let exifOffset = try writeEXIF(metadata, to: output)
        try writeRaw(raw, pattern: pattern, metadata: metadata, color: color, exifOffset: exifOffset,
                     hasPreview: preview != nil, to: output)
        if let preview { try writePreview(preview, to: output) }
        return try output.finish()
    }

    /// The EXIF IFD (the exposure and the moment), written first so IFD0 can point to it.
    private static func writeEXIF(_ metadata: DNGMetadata, to output: TIFFOutput) throws(CodecError) -> UInt64 {
        let time = ExifWriter.timestamp(metadata.exif.captureDate, in: metadata.exif.timeZone)
        try output.startEXIFDirectory()
        try output.set(EXIFTAG_EXPOSURETIME, .rational(metadata.exif.exposureTime.seconds))
        try output.set(EXIFTAG_FNUMBER, .rational(metadata.exif.fNumber))
        try output.set(EXIFTAG_ISOSPEEDRATINGS, .uint16s([UInt16(clamping: metadata.exif.iso)]))
        try output.set(EXIFTAG_EXIFVERSION, .fixedBytes(Array("0232".utf8)))
        try output.set(EXIFTAG_DATETIMEORIGINAL, .ascii(time.dateTime))
        try output.set(EXIFTAG_OFFSETTIMEORIGINAL, .ascii(time.offset))
        try output.set(EXIFTAG_SUBSECTIMEORIGINAL, .ascii(time.subSeconds))
        try output.set(EXIFTAG_FOCALLENGTH, .rational(metadata.exif.focalLength))
        return try output.writeCustomDirectory()
    }

    /// IFD0: the mosaic and the tags a raw reader needs to develop it.
    private static func writeRaw(_ raw: PixelBuffer, pattern: [UInt8], metadata: DNGMetadata, color: DNGColor, exifOffset: UInt64,
                                 hasPreview: Bool, to output: TIFFOutput) throws(CodecError) {
        let calibration = metadata.calibration
        try output.set(TIFFTAG_SUBFILETYPE, .uint32(0))
        try setImageLayout(width: raw.width, height: raw.height, bitsPerSample: 16, samplesPerPixel: 1,
                           photometric: PHOTOMETRIC_CFA, to: output)
        try output.set(TIFFTAG_MAKE, .ascii(metadata.exif.make))
        try output.set(TIFFTAG_MODEL, .ascii(metadata.exif.model))
        try output.set(TIFFTAG_SOFTWARE, .ascii(metadata.exif.software))
        try output.set(TIFFTAG_DATETIME, .ascii(ExifWriter.timestamp(metadata.exif.captureDate, in: metadata.exif.timeZone).dateTime))
        try output.set(TIFFTAG_ORIENTATION, .uint16(metadata.exif.orientation.exifOrientation))
        try output.set(TIFFTAG_XRESOLUTION, .rational(72))
        try output.set(TIFFTAG_YRESOLUTION, .rational(72))
        try output.set(TIFFTAG_RESOLUTIONUNIT, .uint16(UInt16(RESUNIT_INCH)))
        try output.set(TIFFTAG_CFAREPEATPATTERNDIM, .fixedUInt16s([2, 2]))
        try output.set(TIFFTAG_CFAPATTERN, .bytes(pattern))
        try output.set(TIFFTAG_EXIFIFD, .offset(exifOffset))
        try output.set(TIFFTAG_DNGVERSION, .fixedBytes([1, 4, 0, 0]))
        // Every tag here is DNG 1.1 or older but PreviewColorSpace, which older readers may ignore.
        try output.set(TIFFTAG_DNGBACKWARDVERSION, .fixedBytes([1, 1, 0, 0]))
        try output.set(TIFFTAG_UNIQUECAMERAMODEL, .ascii("\(metadata.exif.make) \(metadata.exif.model)"))
        try output.set(TIFFTAG_CFAPLANECOLOR, .bytes([0, 1, 2]))
        try output.set(TIFFTAG_CFALAYOUT, .uint16(1))
        try output.set(TIFFTAG_BLACKLEVEL, .rationals([Double(calibration.blackLevel)]))
        try output.set(TIFFTAG_WHITELEVEL, .uint32s([UInt32(calibration.whiteLevel)]))
        try output.set(TIFFTAG_COLORMATRIX1, .rationals(color.colorMatrix1))
        try output.set(TIFFTAG_CALIBRATIONILLUMINANT1, .uint16(21))  // D65 (EXIF LightSource 21)
        try output.set(TIFFTAG_ASSHOTNEUTRAL, .rationals(color.asShotNeutral))
        if hasPreview { try output.set(TIFFTAG_SUBIFD, .offsets([0])) }
        var row = [UInt16](repeating: 0, count: raw.width)
        try output.writeRows(raw.height, scratch: &row) { y, row in
            let words = raw.baseAddress(plane: 0) + y * raw.planes[0].bytesPerRow
            for x in row.indices { row[x] = UInt16(littleEndian: words.loadUnaligned(fromByteOffset: x * 2, as: UInt16.self)) }
        }
        try output.writeDirectory()
    }

    /// The SubIFD: the preview as 8-bit sRGB.
    private static func writePreview(_ preview: PixelBuffer, to output: TIFFOutput) throws(CodecError) {
        try output.registerDNGTags()
        try output.set(TIFFTAG_SUBFILETYPE, .uint32(UInt32(FILETYPE_REDUCEDIMAGE)))
        try setImageLayout(width: preview.width, height: preview.height, bitsPerSample: 8, samplesPerPixel: 3,
                           photometric: PHOTOMETRIC_RGB, to: output)
        try output.set(CTIFF_TAG_PREVIEWCOLORSPACE, .uint32(2))  // sRGB
        var row = [UInt8](repeating: 0, count: preview.width * 3)
        try output.writeRows(preview.height, scratch: &row) { y, row in
            let pixels = preview.baseAddress(plane: 0).assumingMemoryBound(to: UInt8.self) + y * preview.planes[0].bytesPerRow
            for x in 0..<preview.width {
                row[x * 3] = pixels[x * 4 + 2]
                row[x * 3 + 1] = pixels[x * 4 + 1]
                row[x * 3 + 2] = pixels[x * 4]
            }
        }
        try output.writeDirectory()
    }

    /// The tags that say how an uncompressed image's samples lie, in strips of about 256 KiB.
    private static func setImageLayout(width: Int, height: Int, bitsPerSample: UInt16, samplesPerPixel: UInt16, photometric: Int32,
                                       to output: TIFFOutput) throws(CodecError) {
        let rowBytes = width * Int(bitsPerSample / 8) * Int(samplesPerPixel)
        try output.set(TIFFTAG_IMAGEWIDTH, .uint32(UInt32(width)))
        try output.set(TIFFTAG_IMAGELENGTH, .uint32(UInt32(height)))
        try output.set(TIFFTAG_BITSPERSAMPLE, .uint16(bitsPerSample))
        try output.set(TIFFTAG_SAMPLESPERPIXEL, .uint16(samplesPerPixel))
        try output.set(TIFFTAG_PHOTOMETRIC, .uint16(UInt16(photometric)))
        try output.set(TIFFTAG_COMPRESSION, .uint16(UInt16(COMPRESSION_NONE)))
        try output.set(TIFFTAG_PLANARCONFIG, .uint16(UInt16(PLANARCONFIG_CONTIG)))
        try output.set(TIFFTAG_ROWSPERSTRIP, .uint32(UInt32(min(height, max(1, 262_144 / rowBytes)))))
    }
}
