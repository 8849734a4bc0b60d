extension RadianceHDRPixelData {
    /// Decodes the pixel data that `byteCount` checked into `width × height × 3` floats (r, g, b
    /// per pixel, top row first) — the array a `RadianceImage` keeps, written in place so the
    /// decoded image exists once. Each RGBE pixel becomes mantissa × 2^(E − 136), or 0 when E is
    /// 0, exactly as stb_image and Radiance convert it.
    static func decode(_ bytes: UnsafeRawBufferPointer, header: RadianceHDRHeader) -> [Float] {
        let (width, height) = (header.width, header.height)
        let scales = (0..<256).map { $0 == 0 ? Float(0) : Float(sign: .plus, exponent: $0 - 136, significand: 1) }
        let runLengthEncoded = isRunLengthEncoded(bytes, header: header)
        return [Float](unsafeUninitializedCapacity: width * height * 3) { output, initialized in
            var position = header.pixelOffset
            // One RLE scanline, channel after channel: width red bytes, then green, blue, exponent.
            var scanline = [UInt8](repeating: 0, count: runLengthEncoded ? width * 4 : 0)
            var sample = 0
            for _ in 0..<height {
                if runLengthEncoded {
                    position += 4
                    for channel in 0..<4 {
                        var x = channel * width
                        let end = x + width
                        while x < end {
                            let count = Int(bytes[position])
                            if count > 128 {
                                scanline.withUnsafeMutableBufferPointer { row in
                                    row[x..<(x + count - 128)].update(repeating: bytes[position + 1])
                                }
                                x += count - 128
                                position += 2
                            } else {
                                for offset in 0..<count { scanline[x + offset] = bytes[position + 1 + offset] }
                                x += count
                                position += 1 + count
                            }
                        }
                    }
                }
                for x in 0..<width {
                    let (r, g, b, e) = runLengthEncoded
                        ? (scanline[x], scanline[width + x], scanline[2 * width + x], scanline[3 * width + x])
                        : (bytes[position + 4 * x], bytes[position + 4 * x + 1], bytes[position + 4 * x + 2], bytes[position + 4 * x + 3])
                    let scale = scales[Int(e)]
                    output.initializeElement(at: sample, to: Float(r) * scale)
                    output.initializeElement(at: sample + 1, to: Float(g) * scale)
                    output.initializeElement(at: sample + 2, to: Float(b) * scale)
                    sample += 3
                }
                if !runLengthEncoded { position += 4 * width }
            }
            initialized = sample
        }
    }
}
