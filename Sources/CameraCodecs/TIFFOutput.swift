import Foundation
internal import CTIFF

/// One TIFF file being written by libtiff into memory: typed tag values in, `CodecError`s that
/// carry libtiff's own messages out, and the file's bytes at the end.
///
/// Directories are written one after another (`writeDirectory`); a custom directory such as the
/// EXIF IFD is written on its own and its offset put in a later directory's pointer tag.
final class TIFFOutput {
    /// A tag's value, in the shape libtiff's field table expects for that tag.
    enum Value {
        case uint16(UInt16)
        case uint32(UInt32)
        /// An IFD offset (ExifIFD).
        case offset(UInt64)
        case rational(Double)
        case ascii(String)
        /// A fixed-length array of bytes (DNGVersion).
        case fixedBytes([UInt8])
        /// A fixed-length array of SHORTs (CFARepeatPatternDim).
        case fixedUInt16s([UInt16])
        case bytes([UInt8])
        case uint16s([UInt16])
        case uint32s([UInt32])
        case rationals([Double])
        /// Placeholders for the SubIFDs written next.
        case offsets([UInt64])
    }

    private let file: TIFFMemoryFile
    private let messages = TIFFMessages()
    private var handle: OpaquePointer?

    /// Opens an empty little-endian TIFF with room for `expectedSize` bytes.
    init(expectedSize: Int) throws(CodecError) {
        file = TIFFMemoryFile(expectedSize: expectedSize)
        handle = file.openForWriting(messages: messages)
        guard handle != nil else { throw failure("cannot start a TIFF in memory") }
    }

    deinit {
        if let handle { TIFFClose(handle) }
    }

    /// Sets `tag` in the directory being built.
    func set(_ tag: Int32, _ value: Value) throws(CodecError) {
        let tiff = handle!, tag = UInt32(tag)
        let accepted: Int32 = switch value {
        case .uint16(let number): ctiff_set_uint16(tiff, tag, number)
        case .uint32(let number): ctiff_set_uint32(tiff, tag, number)
        case .offset(let number): ctiff_set_uint64(tiff, tag, number)
        case .rational(let number): ctiff_set_double(tiff, tag, number)
        case .ascii(let text): ctiff_set_string(tiff, tag, text)
        case .fixedBytes(let values): ctiff_set_fixed_bytes(tiff, tag, values)
        case .fixedUInt16s(let values): ctiff_set_fixed_uint16s(tiff, tag, values)
        case .bytes(let values): ctiff_set_uint8s(tiff, tag, UInt16(values.count), values)
        case .uint16s(let values): ctiff_set_uint16s(tiff, tag, UInt16(values.count), values)
        case .uint32s(let values): ctiff_set_uint32s(tiff, tag, UInt16(values.count), values)
        case .rationals(let values): ctiff_set_floats(tiff, tag, UInt16(values.count), values.map { Float($0) })
        case .offsets(let values): ctiff_set_uint64s(tiff, tag, UInt16(values.count), values)
        }
        guard accepted == 1 else { throw failure("libtiff refused \(name(of: tag)) = \(value)") }
    }

    /// Teaches libtiff the DNG tags it does not know (PreviewColorSpace) for the directory being built.
    func registerDNGTags() throws(CodecError) {
        guard ctiff_register_dng_tags(handle!) == 0 else { throw failure("libtiff cannot add the DNG tags it lacks") }
    }

    /// Writes `rows` rows of image data, each filled into `scratch` by `fill(row, scratch)`.
    func writeRows<Sample>(_ rows: Int, scratch: inout [Sample], fill: (Int, inout [Sample]) -> Void) throws(CodecError) {
        for row in 0..<rows {
            fill(row, &scratch)
            let written = scratch.withUnsafeMutableBytes { TIFFWriteScanline(handle!, $0.baseAddress, UInt32(row), 0) }
            guard written == 1 else { throw failure("cannot write row \(row)") }
        }
    }

    /// Starts the EXIF IFD, a custom directory whose tags come from libtiff's EXIF table.
    func startEXIFDirectory() throws(CodecError) {
        guard TIFFCreateEXIFDirectory(handle!) == 0 else { throw failure("cannot start the EXIF directory") }
    }

    /// Writes the custom directory being built and returns its offset, for a pointer tag.
    func writeCustomDirectory() throws(CodecError) -> UInt64 {
        var offset: UInt64 = 0
        guard TIFFWriteCustomDirectory(handle!, &offset) == 1 else { throw failure("cannot write the EXIF directory") }
        TIFFFreeDirectory(handle!)
        TIFFCreateDirectory(handle!)
        return offset
    }

    /// Writes the image directory being built (linked after the previous one, or as the next
    /// SubIFD the previous one reserved) and starts a new one.
    func writeDirectory() throws(CodecError) {
        guard TIFFWriteDirectory(handle!) == 1 else { throw failure("cannot write the image directory") }
    }

    /// Closes the file and returns its bytes.
    func finish() throws(CodecError) -> Data {
        TIFFClose(handle!)
        handle = nil
        guard !messages.hasErrors else { throw failure("cannot finish the file") }
        return Self.retypingSubIFDs(file.bytes)
    }

    /// `bytes` with IFD0's SubIFDs entry typed LONG (4) instead of the IFD (13) libtiff writes. The
    /// TIFF tech note allows both and the value (4-byte offsets) is the same, but exiftool, like
    /// other readers that predate type 13, flags it and does not follow the offsets.
    private static func retypingSubIFDs(_ bytes: [UInt8]) -> Data {
        var data = Data(bytes)
        func word(_ at: Int) -> Int { Int(data[at]) | Int(data[at + 1]) << 8 }
        let ifd0 = word(4) | word(6) << 16
        for entry in 0..<word(ifd0) {
            let at = ifd0 + 2 + entry * 12
            if word(at) == Int(TIFFTAG_SUBIFD), word(at + 2) == Int(TIFF_IFD.rawValue) {
                data[at + 2] = UInt8(TIFF_LONG.rawValue)
            }
        }
        return data
    }

    /// libtiff's name for `tag` in the directory being built (ColorMatrix1), or its number.
    private func name(of tag: UInt32) -> String {
        guard let field = TIFFFindField(handle!, tag, TIFF_NOTYPE), let name = TIFFFieldName(field) else { return "tag \(tag)" }
        return String(cString: name)
    }

    private func failure(_ what: String) -> CodecError {
        CodecError(.encodingFailed, "cannot write the DNG: \(what): \(messages.summary)"
            + " — free memory and try again; if it happens again, report this message")
    }
}
