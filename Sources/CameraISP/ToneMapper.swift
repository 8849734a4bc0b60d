import CameraCore

/// Renders a developed frame through the tone curve into an output buffer, row by row: each
/// pixel's RGB times its gain 2^(f(base) − base), as indices into the sRGB table (`IndexRow`),
/// which `OutputEncoder` looks up and writes in the buffer's format. Stripes of row pairs run on a
/// `StripePool`.
///
/// The base is the guided filter's for `.local` and the pixel's own log luminance for `.global`;
/// an identity curve (`RenderGain.none`, global) skips the luminance and gain altogether.
struct ToneMapper {
    private var filter = GuidedBaseFilter()
    /// Per stripe, two rows of R'G'B' for the formats written in row pairs.
    private var rows: [EncodedRows] = []
    /// Per stripe, one row's sRGB table indices, red, green and blue planes.
    private var indices: [Int32] = []

    mutating func render(_ image: LinearImage, gain: RenderGain, toneMapping: ToneMapping, into encoder: OutputEncoder,
                         stripes: StripePool) {
        let curve = ToneCurve(gain, clipLevel: image.clipLevel, headroom: image.headroom)
        let stripeCount = stripes.stripeCount(rows: image.height, multiple: 2)
        if rows.count != stripeCount { rows = [EncodedRows](repeating: EncodedRows(), count: stripeCount) }
        for stripe in rows.indices { rows[stripe].resize(stride: image.stride) }
        if indices.count != stripeCount * 3 * image.stride { indices = [Int32](repeating: 0, count: stripeCount * 3 * image.stride) }
        if toneMapping == .local && !curve.isIdentity {
            filter.compute(image, stripes: stripes)
            let filter = filter
            filter.rowsA.withUnsafeBufferPointer { rowsA in
                filter.rowsB.withUnsafeBufferPointer { rowsB in
                    renderRows(image, encoder, stripes) { y in
                        let (top, bottom, weight) = filter.rows(for: y)
                        return LocalGain(curve: curve, topA: rowsA.baseAddress! + top * image.stride,
                                         bottomA: rowsA.baseAddress! + bottom * image.stride,
                                         topB: rowsB.baseAddress! + top * image.stride,
                                         bottomB: rowsB.baseAddress! + bottom * image.stride, weight: SIMD8(repeating: weight))
                    }
                }
            }
        } else if curve.isIdentity {
            renderRows(image, encoder, stripes) { _ in UnityGain() }
        } else {
            renderRows(image, encoder, stripes) { _ in GlobalGain(curve: curve) }
        }
    }

    /// Every row of `image`, with the gain `gainOfRow(y)`, into `encoder`, in stripes of row pairs.
    private mutating func renderRows<Gain: PixelGain>(_ image: LinearImage, _ encoder: OutputEncoder, _ stripes: StripePool,
                                                      gainOfRow: (Int) -> Gain) {
        let rowLength = 3 * image.stride
        SRGBEncodeTable.table.withUnsafeBufferPointer { table in
            image.withPlanes { planes in
                indices.withUnsafeMutableBufferPointer { indices in
                    rows.withUnsafeMutableBufferPointer { rows in
                        stripes.run(rows: image.height, multiple: 2) { stripe, stripeRows in
                            rows[stripe].withRows { pairing in
                                let row = IndexRow(base: indices.baseAddress! + stripe * rowLength, stride: planes.stride,
                                                   table: table.baseAddress!)
                                for y in stripeRows {
                                    ToneMapper.tableIndices(planes, at: y * planes.stride, count: planes.stride, gain: gainOfRow(y), into: row)
                                    encoder.write(row, y: y, pairing: pairing)
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The sRGB table index of each channel of one row (three planes of `count`), RGB × gain,
    /// eight pixels at a time. Kept apart from the lookups, which are scalar (there is no
    /// portable vector gather) and would otherwise turn this loop scalar too.
    @inline(never)
    private static func tableIndices<Gain: PixelGain>(_ planes: LinearImage.Planes, at offset: Int, count: Int, gain: Gain,
                                                      into row: IndexRow) {
        let (red, green, blue) = (row.plane(0), row.plane(1), row.plane(2))
        // Two passes, the gains parked in the red plane: with the curve and the encode in one
        // loop, the pixels' channels and the constants do not fit the vector registers.
        let gains = UnsafeMutableRawPointer(red)
        for x in Swift.stride(from: 0, to: count, by: 8) {
            let pixels = planes.load(offset &+ x)
            gains.storeBytes(of: gain.gain(red: pixels.red, green: pixels.green, blue: pixels.blue, at: x), toByteOffset: x &* 4,
                             as: SIMD8<Float>.self)
        }
        for x in Swift.stride(from: 0, to: count, by: 8) {
            let pixels = planes.load(offset &+ x)
            let factor = gains.load(fromByteOffset: x &* 4, as: SIMD8<Float>.self)
            store(SRGBEncodeTable.index(pixels.red * factor), red + x)
            store(SRGBEncodeTable.index(pixels.green * factor), green + x)
            store(SRGBEncodeTable.index(pixels.blue * factor), blue + x)
        }
    }

    @inline(__always)
    private static func store(_ values: SIMD8<Int32>, _ pointer: UnsafeMutablePointer<Int32>) {
        UnsafeMutableRawPointer(pointer).storeBytes(of: values, as: SIMD8<Int32>.self)
    }
}

/// One tone-mapped row as `SRGBEncodeTable` indices (red, green and blue planes, `stride` apart),
/// with the table that turns them into 8-bit R'G'B'.
struct IndexRow {
    let base: UnsafeMutablePointer<Int32>
    let stride: Int
    let table: UnsafePointer<UInt8>

    /// The indices of `channel` (0 red, 1 green, 2 blue).
    @inline(__always)
    func plane(_ channel: Int) -> UnsafeMutablePointer<Int32> { base + channel &* stride }

    /// The 8-bit value of `channel` at `x`.
    @inline(__always)
    func value(_ channel: Int, _ x: Int) -> UInt8 { table[Int(base[channel &* stride &+ x])] }
}

/// The linear gain of eight pixels, from their RGB and their column.
protocol PixelGain {
    func gain(red: SIMD8<Float>, green: SIMD8<Float>, blue: SIMD8<Float>, at x: Int) -> SIMD8<Float>
}

/// No gain: the frame as developed.
private struct UnityGain: PixelGain {
    @inline(__always)
    func gain(red: SIMD8<Float>, green: SIMD8<Float>, blue: SIMD8<Float>, at x: Int) -> SIMD8<Float> { SIMD8(repeating: 1) }
}

/// The curve on each pixel's own log luminance.
private struct GlobalGain: PixelGain {
    let curve: ToneCurve
    let luminance = Luminance()

    @inline(__always)
    func gain(red: SIMD8<Float>, green: SIMD8<Float>, blue: SIMD8<Float>, at x: Int) -> SIMD8<Float> {
        // The pixel is its own base: no detail over it.
        FastMath.exp2(curve.log2Gain(luminance.log2(red: red, green: green, blue: blue)))
    }
}

/// The curve on the guided filter's base a·L + b, a and b interpolated between the two
/// upsampled low-resolution rows around this row.
private struct LocalGain: PixelGain {
    let curve: ToneCurve
    let luminance = Luminance()
    let topA, bottomA, topB, bottomB: UnsafePointer<Float>
    /// The bottom row's weight.
    let weight: SIMD8<Float>

    @inline(__always)
    func gain(red: SIMD8<Float>, green: SIMD8<Float>, blue: SIMD8<Float>, at x: Int) -> SIMD8<Float> {
        let top = (load(topA + x), load(topB + x)), bottom = (load(bottomA + x), load(bottomB + x))
        let a = (bottom.0 - top.0) * weight + top.0, b = (bottom.1 - top.1) * weight + top.1
        let level = luminance.log2(red: red, green: green, blue: blue)
        return FastMath.exp2(curve.log2Gain(level: level, base: a * level + b))
    }

    @inline(__always)
    private func load(_ pointer: UnsafePointer<Float>) -> SIMD8<Float> {
        UnsafeRawPointer(pointer).loadUnaligned(as: SIMD8<Float>.self)
    }
}
