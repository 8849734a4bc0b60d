extension RadianceHDRPixelData {
    /// Decodes the pixel data that `byteCount` checked into `width × height` RGBE words (red in
    /// bits 0…7, green 8…15, blue 16…23, the exponent E in 24…31; top row first), written in
    /// place so the decoded image exists once, at 4 bytes a pixel. A word's radiance is
    /// mantissa × 2^(E − 136), or 0 when E is 0, exactly as stb_image and Radiance convert it.
    static func decodePacked(_ bytes: UnsafeRawBufferPointer, header: RadianceHDRHeader) -> [UInt32] {
        let (width, height) = (header.width, header.height)
        let runLengthEncoded = isRunLengthEncoded(bytes, header: header)
        return [UInt32](unsafeUninitializedCapacity: width * height) { output, initialized in
            var position = header.pixelOffset
            // One RLE scanline, channel after channel: width red bytes, then green, blue, exponent.
            var scanline = [UInt8](repeating: 0, count: runLengthEncoded ? width * 4 : 0)
            var pixel = 0
            for _ in 0..<height {
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
                            let word = UInt32(row[x]) | UInt32(row[width + x]) << 8 | UInt32(row[2 * width + x]) << 16
                                | UInt32(row[3 * width + x]) << 24
                            output.initializeElement(at: pixel + x, to: word)
                        }
                    }
                } else {
                    for x in 0..<width {
                        output.initializeElement(at: pixel + x, to: bytes.loadUnaligned(fromByteOffset: position + 4 * x, as: UInt32.self).littleEndian)
                    }
                    position += 4 * width
                }
                pixel += width
            }
            initialized = pixel
        }
    }

    /// Decodes the pixel data that `byteCount` checked into `width × height × 3` floats (r, g, b
    /// per pixel, top row first), each RGBE word converted as `decodePacked` describes.
    static func decode(_ bytes: UnsafeRawBufferPointer, header: RadianceHDRHeader) -> [Float] {
        let scales = (0..<256).map { $0 == 0 ? Float(0) : Float(sign: .plus, exponent: $0 - 136, significand: 1) }
        let words = decodePacked(bytes, header: header)
        return [Float](unsafeUninitializedCapacity: words.count * 3) { output, initialized in
            for (index, word) in words.enumerated() {
                let scale = scales[Int(word >> 24)]
                output.initializeElement(at: 3 * index, to: Float(word & 0xFF) * scale)
                output.initializeElement(at: 3 * index + 1, to: Float((word >> 8) & 0xFF) * scale)
                output.initializeElement(at: 3 * index + 2, to: Float((word >> 16) & 0xFF) * scale)
            }
            initialized = words.count * 3
        }
    }
}
