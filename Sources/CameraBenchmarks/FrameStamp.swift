import CameraCore

/// A frame's number drawn into its picture as blocks of black and white, so that it survives
/// H.264 and a trip through a streaming server and can be read back from the decoded picture:
/// 16 bits, most significant first, then a white and a black guard block, each `block` pixels
/// square, along the top-left edge.
enum FrameStamp {
    static let block = 32
    static let bits = 16
    /// The blocks drawn: the bits and the two guards.
    static let width = (bits + 2) * block

    /// Draws `number` into `buffer`, at least `width` × `block` pixels: bgra8, or raw Bayer, whose
    /// blocks are drawn at the white level and at 0 on every site, so that they come out of the
    /// image pipeline white and black.
    static func draw(_ number: UInt16, into buffer: PixelBuffer) {
        let (bytesPerSample, white, black): (Int, UInt16, UInt16)
        switch buffer.format {
        case .bgra8: (bytesPerSample, white, black) = (4, 255, 0)
        case .bayer16(_, let bits): (bytesPerSample, white, black) = (2, UInt16(truncatingIfNeeded: (1 << bits) - 1), 0)
        default: preconditionFailure("FrameStamp draws into bgra8 or bayer16 frames, not \(buffer.format)")
        }
        let stride = buffer.planes[0].bytesPerRow
        buffer.withUnsafeMutableBytes(plane: 0) { bytes in
            for index in 0..<bits + 2 {
                let isWhite = index < bits ? number >> (bits - 1 - index) & 1 == 1 : index == bits
                let value = isWhite ? white : black
                for y in 0..<block {
                    let row = y * stride + index * block * bytesPerSample
                    if bytesPerSample == 2 {
                        for x in 0..<block { bytes.storeBytes(of: value.littleEndian, toByteOffset: row + 2 * x, as: UInt16.self) }
                    } else {
                        for x in 0..<block * 4 where x % 4 != 3 { bytes[row + x] = UInt8(truncatingIfNeeded: value) }
                    }
                }
            }
        }
    }

    /// The number in a grey picture (`stride` bytes a row), judging each block by its centre; nil
    /// when the guards are not white then black (no stamp there).
    static func read(_ gray: UnsafeRawBufferPointer, stride: Int) -> UInt16? {
        func isWhite(_ index: Int) -> Bool {
            var sum = 0
            for y in block / 4..<block * 3 / 4 {
                for x in block / 4..<block * 3 / 4 { sum += Int(gray[y * stride + index * block + x]) }
            }
            return sum > 128 * (block / 2) * (block / 2)
        }
        guard isWhite(bits), !isWhite(bits + 1) else { return nil }
        return (0..<bits).reduce(0) { number, index in number << 1 | (isWhite(index) ? 1 : 0) }
    }
}
