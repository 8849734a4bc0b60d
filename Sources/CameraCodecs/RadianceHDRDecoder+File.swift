import CameraSystem
import Foundation

extension RadianceHDRDecoder {
    /// Decodes the `.hdr` file at `url` into RGBE words, checked as `decode` checks it. Flat pixel
    /// data is read straight into the words, so a 400 MB flat file at the 100 Mpixel limit takes
    /// 400 MB, not twice that; run-length encoded data is read whole (it is the compressed size)
    /// and decoded into the words.
    public func decodePacked(contentsOf url: URL) throws(CodecError) -> Packed {
        let path = url.path
        func unreadable(_ error: SystemCallError) -> CodecError {
            CodecError(.unreadable, "cannot read \(path): \(error.reason) — check the path and its permissions")
        }
        let file: FileDescriptor, size: Int
        var head = [UInt8](repeating: 0, count: RadianceHDRHeader.maximumHeaderLength + 4)
        let headCount: Int
        do {
            file = try FileDescriptor.open(path, .readOnly)
            size = Int(try file.status().byteCount)
            headCount = try head.withUnsafeMutableBytes { bytes in
                Result { () throws(SystemCallError) in try Self.read(file, into: bytes, at: 0) }
            }.get()
        } catch {
            throw unreadable(error)
        }
        head.removeLast(head.count - headCount)
        if headCount >= size {
            return try head.withUnsafeBytes { bytes in
                Result { () throws(CodecError) in try decodePacked(bytes, source: path) }
            }.get()
        }
        let flatHeader = try head.withUnsafeBytes { bytes in
            Result { () throws(CodecError) -> RadianceHDRHeader? in
                let header = try RadianceHDRHeader(parsing: bytes, source: path)
                return RadianceHDRPixelData.isRunLengthEncoded(bytes, header: header) ? nil : header
            }
        }.get()
        guard let header = flatHeader else {
            head = []
            return try FileAccess.read(url).withUnsafeBytes { bytes in
                Result { () throws(CodecError) in try decodePacked(bytes, source: path) }
            }.get()
        }
        try checkLimit(header, source: path, bytesPerPixel: Self.bytesPerPackedPixel)
        let count = header.width * header.height
        func truncated(found: Int) -> CodecError {
            RadianceHDRPixelData.truncated(path, expected: count * 4, found: found,
                                           detail: "\(header.width)×\(header.height) flat RGBE pixels")
        }
        guard size - header.pixelOffset >= count * 4 else { throw truncated(found: size - header.pixelOffset) }
        var found = 0
        var failure: SystemCallError?
        var words = [UInt32](unsafeUninitializedCapacity: count) { words, initialized in
            do throws(SystemCallError) {
                found = try Self.read(file, into: UnsafeMutableRawBufferPointer(words), at: header.pixelOffset)
            } catch {
                failure = error
            }
            initialized = found == count * 4 ? count : 0
        }
        if let failure { throw unreadable(failure) }
        // The file shrank since its size was read.
        guard found == count * 4 else { throw truncated(found: found) }
        if UInt32(1).littleEndian != 1 {
            for index in words.indices { words[index] = UInt32(littleEndian: words[index]) }
        }
        return Packed(width: header.width, height: header.height, pixels: words)
    }

    /// Reads into all of `buffer` from `offset`, or up to the end of the file; returns the bytes read.
    private static func read(_ file: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(SystemCallError) -> Int {
        var filled = 0
        while filled < buffer.count {
            let count = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]), at: Int64(offset + filled))
            if count == 0 { break }
            filled += count
        }
        return filled
    }
}
