import CameraCore

/// The beauty filter's two passes over a bgra8 frame: each block's mean luma and whether its
/// colour may be skin, then the smoothed luma's change added to all three channels of skin pixels.
/// Luma is BT.601's, 0…1.
struct BGRASkin: SkinPasses {
    private let buffer: PixelBuffer

    init(_ buffer: PixelBuffer) {
        self.buffer = buffer
    }

    /// Fills `planes`' block luma and skin flags from the blocks' mean colours. The sums run over
    /// pixel pairs, two channels to a 64-bit word (blue and red, green and alpha of both pixels in
    /// 16-bit lanes: a block's 16 pixels of 255 fit), in a loop the compiler turns into vectors,
    /// so the pass costs little more than reading the frame; then each block adds up its pairs.
    func fillBlocks(_ planes: GuidedFilterPlanes) {
        let scale = planes.scale, lowWidth = planes.lowWidth, width = buffer.width, pairCount = (width + 1) / 2
        let pixels = buffer.baseAddress(plane: 0), bytesPerRow = buffer.planes[0].bytesPerRow
        let luma = planes.blockLuma, skin = planes.skinBlocks
        let lanes: UInt64 = 0x00FF_00FF_00FF_00FF
        var blueRed = [UInt64](repeating: 0, count: pairCount), greenAlpha = blueRed
        blueRed.withUnsafeMutableBufferPointer { blueRed in
            greenAlpha.withUnsafeMutableBufferPointer { greenAlpha in
                for lowY in 0..<planes.lowHeight {
                    blueRed.update(repeating: 0)
                    greenAlpha.update(repeating: 0)
                    let rows = lowY * scale..<min((lowY + 1) * scale, buffer.height)
                    for y in rows {
                        // An odd width's last pair reads its row's padding (rows are padded to 64 bytes), masked off below.
                        let row = UnsafeRawPointer(pixels + y * bytesPerRow)
                        for pair in 0..<pairCount {
                            let twoPixels = row.loadUnaligned(fromByteOffset: 8 * pair, as: UInt64.self)
                            blueRed[pair] &+= twoPixels & lanes
                            greenAlpha[pair] &+= twoPixels >> 8 & lanes
                        }
                    }
                    if !width.isMultiple(of: 2) {
                        blueRed[pairCount - 1] &= 0xFFFF_FFFF
                        greenAlpha[pairCount - 1] &= 0xFFFF_FFFF
                    }
                    for lowX in 0..<lowWidth {
                        let columns = lowX * scale..<min((lowX + 1) * scale, width)
                        var sums = (blueRed: UInt64(0), greenAlpha: UInt64(0))
                        for pair in columns.lowerBound / 2..<(columns.upperBound + 1) / 2 {
                            sums.blueRed &+= blueRed[pair]
                            sums.greenAlpha &+= greenAlpha[pair]
                        }
                        let inverse = 1 / Float(rows.count * columns.count)
                        let blue = Float((sums.blueRed & 0xFFFF) + (sums.blueRed >> 32 & 0xFFFF)) * inverse
                        let red = Float((sums.blueRed >> 16 & 0xFFFF) + (sums.blueRed >> 48)) * inverse
                        let green = Float((sums.greenAlpha & 0xFFFF) + (sums.greenAlpha >> 32 & 0xFFFF)) * inverse
                        luma[lowY * lowWidth + lowX] = Self.luma(blue: blue, green: green, red: red)
                        skin[lowY * lowWidth + lowX] = BeautyFilter.skinDistance(red: red, green: green, blue: blue) < BeautyFilter.blockReach
                    }
                }
            }
        }
    }

    /// Moves the luma of each skin pixel of row `y` within `columns` towards the guided filter's
    /// `fits` by `amount` times its skin weight; other pixels are left exactly as they are (their
    /// shift is 0, and a byte plus 0.5 rounds down to itself). Eight pixels a step in vectors,
    /// a step with no skin pixel not written.
    func smooth(row y: Int, columns: Range<Int>, fits: GuidedFilterPlanes.Fits, amount: Float) {
        let row = (buffer.baseAddress(plane: 0) + y * buffer.planes[0].bytesPerRow).assumingMemoryBound(to: UInt32.self)
        var x = columns.lowerBound
        while x + 8 <= columns.upperBound {
            let pixels = UnsafeRawPointer(row + x).loadUnaligned(as: SIMD8<UInt32>.self)
            let blue = Self.channel(pixels, 0), green = Self.channel(pixels, 8), red = Self.channel(pixels, 16)
            let weight = amount * Self.skinWeight(red: red, green: green, blue: blue)
            if any(weight .> 0) {
                let luma = Self.luma(blue: blue, green: green, red: red)
                let slopes = UnsafeRawPointer(fits.slopes + x).loadUnaligned(as: SIMD8<Float>.self)
                let offsets = UnsafeRawPointer(fits.offsets + x).loadUnaligned(as: SIMD8<Float>.self)
                let shift = weight * 255 * (slopes * luma + offsets - luma)
                let smoothed = Self.byte(blue + shift) | Self.byte(green + shift) &<< 8 | Self.byte(red + shift) &<< 16
                UnsafeMutableRawPointer(row + x).storeBytes(of: pixels & 0xFF00_0000 | smoothed, as: SIMD8<UInt32>.self)
            }
            x += 8
        }
        while x < columns.upperBound {
            let pixel = row[x]
            let blue = Float(pixel & 255), green = Float(pixel >> 8 & 255), red = Float(pixel >> 16 & 255)
            let weight = amount * BeautyFilter.skinWeight(red: red, green: green, blue: blue)
            if weight > 0 {
                let luma = Self.luma(blue: blue, green: green, red: red)
                let shift = weight * 255 * (fits.slopes[x] * luma + fits.offsets[x] - luma)
                let smoothed = Self.byte(blue + shift) | Self.byte(green + shift) << 8 | Self.byte(red + shift) << 16
                row[x] = pixel & 0xFF00_0000 | smoothed
            }
            x += 1
        }
    }

    // Bytes and floats convert through 2²³, whose float has a unit in its last place: the byte
    // in the low bits of its pattern is the float 2²³ + byte. Swift's vector conversions between
    // floats and integers are generic loops, 10 times slower than the whole filter.
    private static let magic: Float = 8_388_608

    /// The byte at bit `shift` of each pixel, as a float.
    @inline(__always)
    private static func channel(_ pixels: SIMD8<UInt32>, _ shift: UInt32) -> SIMD8<Float> {
        unsafeBitCast(pixels &>> shift & 255 | magic.bitPattern, to: SIMD8<Float>.self) - magic
    }

    /// The nearest byte to each value, clamped to 0…255.
    @inline(__always)
    private static func byte(_ value: SIMD8<Float>) -> SIMD8<UInt32> {
        let clamped = value.replacing(with: 0, where: value .< 0).replacing(with: 255, where: value .> 255)
        return unsafeBitCast(clamped + magic, to: SIMD8<UInt32>.self) & 255
    }

    /// The nearest byte to `value`, clamped to 0…255, rounded as the vector path rounds.
    @inline(__always)
    private static func byte(_ value: Float) -> UInt32 {
        (min(max(value, 0), 255) + magic).bitPattern & 255
    }

    /// `BeautyFilter.skinWeight` of eight colours.
    @inline(__always)
    private static func skinWeight(red: SIMD8<Float>, green: SIMD8<Float>, blue: SIMD8<Float>) -> SIMD8<Float> {
        let weight = BeautyFilter.skinRamp(red: red, green: green, blue: blue)
        return weight.replacing(with: 0, where: weight .< 0).replacing(with: 1, where: weight .> 1)
    }

    /// BT.601 luma, 0…1, of one colour or of eight.
    @inline(__always)
    private static func luma<V: FloatLanes>(blue: V, green: V, red: V) -> V {
        (0.114 * blue + 0.587 * green + 0.299 * red) * (1 / 255 as Float)
    }
}
