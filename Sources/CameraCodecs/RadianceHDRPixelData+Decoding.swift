extension RadianceHDRPixelData {
    /// Walks the pixel data that `byteCount` checked, handing each scanline, top first, to `body`
    /// as `width` RGBE words (red in bits 0…7, green 8…15, blue 16…23, the exponent E in 24…31),
    /// in one reused row. A word's radiance is mantissa × 2^(E − 136), or 0 when E is 0, exactly
    /// as stb_image and Radiance convert it.
    static func forEachScanline(_ bytes: UnsafeRawBufferPointer, header: RadianceHDRHeader,
                                _ body: (_ row: Int, _ words: UnsafeBufferPointer<UInt32>) -> Void) {
        let width = header.width
        let runLengthEncoded = isRunLengthEncoded(bytes, header: header)
        var position = header.pixelOffset
        // One RLE scanline, channel after channel: width red bytes, then green, blue, exponent.
        var scanline = [UInt8](repeating: 0, count: runLengthEncoded ? width * 4 : 0)
        var words = [UInt32](repeating: 0, count: width)
        for y in 0..<header.height {
            if runLengthEncoded {
                position += 4
                scanline.withUnsafeMutableBufferPointer { row in
                    for channel in 0..<4 {
                        var x = channel * width
                        let end = x + width
                        while x < end {
                            let count = Int(bytes[position])
                            if count > 128 {
                                row[x..<(x + count - 128)].update(repeating: bytes[position + 1])
                                x += count - 128
                                position += 2
                            } else {
                                for offset in 0..<count { row[x + offset] = bytes[position + 1 + offset] }
                                x += count
                                position += 1 + count
                            }
                        }
                    }
                    for x in 0..<width {
                        words[x] = UInt32(row[x]) | UInt32(row[width + x]) << 8 | UInt32(row[2 * width + x]) << 16
                            | UInt32(row[3 * width + x]) << 24
                    }
                }
            } else {
                for x in 0..<width {
                    words[x] = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: position + 4 * x, as: UInt32.self))
                }
                position += 4 * width
            }
            words.withUnsafeBufferPointer { body(y, $0) }
        }
    }

    /// Decodes the pixel data that `byteCount` checked into `width × height` RGBE words, top row
    /// first, written in place so the decoded image exists once, at 4 bytes a pixel.
    static func decodePacked(_ bytes: UnsafeRawBufferPointer, header: RadianceHDRHeader) -> [UInt32] {
        let width = header.width
        return [UInt32](unsafeUninitializedCapacity: width * header.height) { output, initialized in
            forEachScanline(bytes, header: header) { y, words in
                _ = UnsafeMutableBufferPointer(rebasing: output[(y * width)..<((y + 1) * width)]).initialize(from: words)
            }
            initialized = width * header.height
        }
    }

    /// Decodes the pixel data that `byteCount` checked into `width × height × 3` floats (r, g, b
    /// per pixel, top row first) — the array a `RadianceImage` keeps, written in place so the
    /// decoded image exists once.
    static func decode(_ bytes: UnsafeRawBufferPointer, header: RadianceHDRHeader) -> [Float] {
        let width = header.width
        let scales = (0..<256).map { $0 == 0 ? Float(0) : Float(sign: .plus, exponent: $0 - 136, significand: 1) }
        return [Float](unsafeUninitializedCapacity: width * header.height * 3) { output, initialized in
            forEachScanline(bytes, header: header) { y, words in
                for (x, word) in words.enumerated() {
                    let scale = scales[Int(word >> 24)], sample = 3 * (y * width + x)
                    output.initializeElement(at: sample, to: Float(word & 0xFF) * scale)
                    output.initializeElement(at: sample + 1, to: Float((word >> 8) & 0xFF) * scale)
                    output.initializeElement(at: sample + 2, to: Float((word >> 16) & 0xFF) * scale)
                }
            }
            initialized = width * header.height * 3
        }
    }
}
