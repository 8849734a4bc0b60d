import CameraCore

/// bgra8 (full-range R'G'B') into the encoder's 4:2:0 planes in BT.709 video range, sixteen pixels
/// of two rows at a time: Y' of each pixel and Cb, Cr of each 2×2 block's rounded mean R'G'B' — what
/// `BT709.encode` gives pixel by pixel, and what the image pipeline writes for an nv12 picture.
/// libswscale has no direct path for this pair and takes several times longer (`bench record`).
struct BGRAToYUV420 {
    /// The three destination planes and their row strides in bytes.
    let luma: UnsafeMutablePointer<UInt8>, lumaStride: Int
    let blue: UnsafeMutablePointer<UInt8>, blueStride: Int
    let red: UnsafeMutablePointer<UInt8>, redStride: Int

    private static let weights = EncodeWeights(.video)

    /// Converts `buffer` (bgra8, even width) into the planes; an odd last row pairs with itself.
    func convert(_ buffer: PixelBuffer) {
        precondition(buffer.format == .bgra8 && buffer.width % 2 == 0, "BGRAToYUV420 takes bgra8 frames of even width")
        let source = buffer.baseAddress(plane: 0), bytesPerRow = buffer.planes[0].bytesPerRow
        for y in Swift.stride(from: 0, to: buffer.height, by: 2) {
            let top = source + y * bytesPerRow
            let bottom = y + 1 < buffer.height ? top + bytesPerRow : top
            let chromaRow = y / 2
            let rows = Rows(top: top, bottom: bottom, lumaTop: luma + y * lumaStride,
                            lumaBottom: y + 1 < buffer.height ? luma + (y + 1) * lumaStride : nil,
                            blue: blue + chromaRow * blueStride, red: red + chromaRow * redStride)
            let vectorWidth = buffer.width / 16 * 16
            var x = 0
            while x < vectorWidth {
                Self.convertSixteen(rows, at: x)
                x += 16
            }
            while x < buffer.width {
                Self.convertPair(rows, at: x)
                x += 2
            }
        }
    }

    /// Two source rows and where their samples go (`lumaBottom` nil for an odd height's last row).
    private struct Rows {
        let top, bottom: UnsafeMutableRawPointer
        let lumaTop: UnsafeMutablePointer<UInt8>, lumaBottom: UnsafeMutablePointer<UInt8>?
        let blue, red: UnsafeMutablePointer<UInt8>
    }

    /// Eight pixels' channels.
    private struct Channels {
        var red, green, blue: SIMD8<Int32>

        @inline(__always)
        init(_ pointer: UnsafeMutableRawPointer) {
            let pixels = SIMD8<Int32>(truncatingIfNeeded: pointer.loadUnaligned(as: SIMD8<UInt32>.self))
            (blue, green, red) = (pixels & 0xFF, (pixels &>> 8) & 0xFF, (pixels &>> 16) & 0xFF)
        }

        @inline(__always)
        init(red: SIMD8<Int32>, green: SIMD8<Int32>, blue: SIMD8<Int32>) { (self.red, self.green, self.blue) = (red, green, blue) }

        /// Lanes 0, 2, 4, … of `self` and then of `other` added to lanes 1, 3, 5, …: the sums of neighbouring pairs.
        @inline(__always)
        func pairSums(_ other: Channels) -> Channels {
            func sums(_ a: SIMD8<Int32>, _ b: SIMD8<Int32>) -> SIMD8<Int32> {
                SIMD8(lowHalf: a.evenHalf, highHalf: b.evenHalf) &+ SIMD8(lowHalf: a.oddHalf, highHalf: b.oddHalf)
            }
            return Channels(red: sums(red, other.red), green: sums(green, other.green), blue: sums(blue, other.blue))
        }

        static func &+ (lhs: Channels, rhs: Channels) -> Channels {
            Channels(red: lhs.red &+ rhs.red, green: lhs.green &+ rhs.green, blue: lhs.blue &+ rhs.blue)
        }
    }

    @inline(__always)
    private static func convertSixteen(_ rows: Rows, at x: Int) {
        let offset = x &* 4
        let top = (Channels(rows.top + offset), Channels(rows.top + (offset + 32)))
        let bottom = (Channels(rows.bottom + offset), Channels(rows.bottom + (offset + 32)))
        storeLuma(top.0, top.1, rows.lumaTop + x)
        if let lumaBottom = rows.lumaBottom { storeLuma(bottom.0, bottom.1, lumaBottom + x) }
        let sums = top.0.pairSums(top.1) &+ bottom.0.pairSums(bottom.1)
        let mean = Channels(red: (sums.red &+ 2) &>> 2, green: (sums.green &+ 2) &>> 2, blue: (sums.blue &+ 2) &>> 2)
        let w = weights, half = SIMD8<Int32>(repeating: 128 << 16 | 1 << 15)
        let cb = w.blueRed &* mean.red &+ w.blueGreen &* mean.green &+ w.blueBlue &* mean.blue &+ half
        let cr = w.redRed &* mean.red &+ w.redGreen &* mean.green &+ w.redBlue &* mean.blue &+ half
        store(cb &>> 16, rows.blue + x / 2)
        store(cr &>> 16, rows.red + x / 2)
    }

    @inline(__always)
    private static func storeLuma(_ first: Channels, _ second: Channels, _ destination: UnsafeMutablePointer<UInt8>) {
        store(luma(first), destination)
        store(luma(second), destination + 8)
    }

    @inline(__always)
    private static func luma(_ c: Channels) -> SIMD8<Int32> {
        let w = weights
        return (w.lumaRed &* c.red &+ w.lumaGreen &* c.green &+ w.lumaBlue &* c.blue &+ (w.lumaOffset &+ 1 << 15)) &>> 16
    }

    /// Eight values of 0…255 as bytes. Video-range weights keep every sample of 8-bit R'G'B'
    /// within 16…240, so none needs clamping.
    @inline(__always)
    private static func store(_ values: SIMD8<Int32>, _ destination: UnsafeMutablePointer<UInt8>) {
        UnsafeMutableRawPointer(destination).storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: values), as: SIMD8<UInt8>.self)
    }

    /// The last columns of a width that is not a multiple of 16, a pair at a time.
    private static func convertPair(_ rows: Rows, at x: Int) {
        let block = [rows.top + x * 4, rows.top + x * 4 + 4, rows.bottom + x * 4, rows.bottom + x * 4 + 4].map { pixel in
            (red: pixel.load(fromByteOffset: 2, as: UInt8.self), green: pixel.load(fromByteOffset: 1, as: UInt8.self),
             blue: pixel.load(as: UInt8.self))
        }
        let luma = block.map { BT709.encode(red: $0.red, green: $0.green, blue: $0.blue, range: .video).y }
        (rows.lumaTop[x], rows.lumaTop[x + 1]) = (luma[0], luma[1])
        if let lumaBottom = rows.lumaBottom { (lumaBottom[x], lumaBottom[x + 1]) = (luma[2], luma[3]) }
        func mean(_ samples: [UInt8]) -> UInt8 { UInt8((samples.reduce(0) { $0 + Int($1) } + 2) / 4) }
        let chroma = BT709.encode(red: mean(block.map { $0.red }), green: mean(block.map { $0.green }), blue: mean(block.map { $0.blue }),
                                  range: .video)
        (rows.blue[x / 2], rows.red[x / 2]) = (chroma.cb, chroma.cr)
    }
}
