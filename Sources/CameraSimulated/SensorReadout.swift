import CameraCore

/// The settings the sensor integrates one frame with.
struct ExposureValues: Hashable {
    var duration: Double
    var analogueGain: Double
    var digitalGain: Double
    var whiteBalance: WhiteBalanceGains
    /// The scene light's factor per channel (red, green, blue), applied to the radiance.
    var illuminant = Illuminant.neutral
}

/// Reads a frame off the sensor: integrates the optical image, adds noise, clips, quantises and
/// writes the result in the buffer's pixel format. Keeps its lookup tables and row buffers
/// between frames.
struct SensorReadout {
    let model: SensorModel
    private var output: (key: [Double], table: [UInt8]) = ([], [])
    /// Two rows of planar raw values (red, green, blue planes per row).
    private var raw: [Int32] = []
    /// Where each row of a mosaic reads the noise table, drawn in row order before the rows are read in stripes.
    private var noiseOffsets: [Int] = []

    init(model: SensorModel) {
        self.model = model
    }

    /// Exposes `buffer` to the `buffer.width`-wide window of `image` starting at column `originX`,
    /// row `y` lit by `rowLight[y]` (the light's mean factor during that row's exposure).
    mutating func read(_ image: PackedRadiance, originX: Int, exposure: ExposureValues, rowLight: [Float],
                       noise rng: inout SplitMix64, into buffer: PixelBuffer) {
        precondition(image.height == buffer.height && originX + buffer.width <= image.width,
                     "optical image \(image.width)x\(image.height) does not cover a \(buffer.width)x\(buffer.height) view at column \(originX)")
        precondition(rowLight.count == buffer.height, "one light factor per row")
        if case .bayer16(_, let bits) = buffer.format {
            // The signal spans the white level less the pedestal.
            let signal = SensorModel.whiteLevel - SensorModel.blackLevel
            let signalScale = Float(model.meanRawValue(luminance: 1, exposure: exposure.duration, gain: exposure.analogueGain,
                                                       fullScale: signal)) * exposure.illuminant
            if noiseOffsets.count != buffer.height { noiseOffsets = [Int](repeating: 0, count: buffer.height) }
            for y in 0..<buffer.height { noiseOffsets[y] = NoiseSource.rowOffset(&rng) }
            SensorReadout.readMosaic(image, originX: originX, scale: signalScale,
                                     noise: model.noiseModel(gain: exposure.analogueGain, fullScale: signal), rowLight: rowLight,
                                     bits: bits, noiseOffsets: noiseOffsets, into: buffer)
            return
        }
        let scale = Float(model.meanRawValue(luminance: 1, exposure: exposure.duration, gain: exposure.analogueGain)) * exposure.illuminant
        let noise = model.noiseModel(gain: exposure.analogueGain)
        let key = [exposure.whiteBalance.red, exposure.whiteBalance.green, exposure.whiteBalance.blue, exposure.digitalGain]
        if output.key != key {
            output = (key, model.outputTable(whiteBalance: exposure.whiteBalance, digitalGain: exposure.digitalGain))
        }
        let width = buffer.width
        let planeStride = (width + 7) / 8 * 8
        if raw.count != planeStride * 6 { raw = [Int32](repeating: 0, count: planeStride * 6) }
        let writer = PixelRowWriter(buffer: buffer)
        image.pixels.withUnsafeBufferPointer { pixels in
            NoiseSource.deviates.withUnsafeBufferPointer { deviates in
                output.table.withUnsafeBufferPointer { lut in
                    raw.withUnsafeMutableBufferPointer { raw in
                        var y = 0
                        while y < buffer.height {
                            let count = min(2, buffer.height - y)
                            for row in 0..<count {
                                SensorReadout.exposeRow(pixels.baseAddress! + (y + row) * image.stride + originX, count: width,
                                                        scale: scale * rowLight[y + row], noise: noise,
                                                        deviates: deviates.baseAddress! + NoiseSource.rowOffset(&rng),
                                                        into: raw.baseAddress! + row * 3 * planeStride, planeStride: planeStride)
                            }
                            writer.write(RawRows(raw: raw.baseAddress!, planeStride: planeStride, lut: lut.baseAddress!), count: count, at: y)
                            y += count
                        }
                    }
                }
            }
        }
    }

    /// Raw values of `count` pixels into three planar rows (red, green, blue, `planeStride` apart),
    /// eight pixels at a time; `scale` is the raw value of 1 cd/m² in each channel. One `quantize`
    /// call site, so that it inlines into a tight loop.
    @inline(never)
    private static func exposeRow(_ source: UnsafePointer<UInt32>, count: Int, scale: SIMD3<Float>, noise: NoiseModel,
                                  deviates: UnsafePointer<Float>, into raw: UnsafeMutablePointer<Int32>, planeStride: Int) {
        // Each channel's scale broadcast once, read as a vector in the loop (indexing a SIMD3
        // there would spill and re-broadcast it every time).
        let scales = (SIMD8<Float>(repeating: scale.x), SIMD8<Float>(repeating: scale.y), SIMD8<Float>(repeating: scale.z))
        withUnsafeBytes(of: scales) { scales in
            let scales = scales.baseAddress!.assumingMemoryBound(to: SIMD8<Float>.self)
            for x in Swift.stride(from: 0, to: count, by: 8) {
                let packed = UnsafeRawPointer(source + x).loadUnaligned(as: SIMD8<UInt32>.self)
                let unit = PackedRadiance.unitScale(packed)
                for channel in 0..<3 {
                    let mean = PackedRadiance.mantissa(packed, channel: channel) * (unit * scales[channel])
                    store(noise.quantize(mean, deviates: load(deviates + channel * 4096 + x)), raw + channel * planeStride + x)
                }
            }
        }
    }

    /// A raw RGGB mosaic: one colour per pixel on the black level (`SensorModel.blackLevel`), no
    /// white balance, digital gain or tone curve, scaled to `bits`; row `y` reads the noise table
    /// from `noiseOffsets[y]`. In stripes of rows on the `StripePool`.
    private static func readMosaic(_ image: PackedRadiance, originX: Int, scale: SIMD3<Float>, noise: NoiseModel, rowLight: [Float],
                                   bits: Int, noiseOffsets: [Int], into buffer: PixelBuffer) {
        let shift = Int32(12 - bits)
        let pedestal = Float(SensorModel.blackLevel)
        let odd = SIMD8<Float>(0, 1, 0, 1, 0, 1, 0, 1), even = 1 - odd
        let (bytesPerRow, width) = (buffer.planes[0].bytesPerRow, buffer.width)
        let base = buffer.baseAddress(plane: 0)
        image.pixels.withUnsafeBufferPointer { pixels in
            NoiseSource.deviates.withUnsafeBufferPointer { deviates in
                StripePool.shared.run(rows: buffer.height) { _, rows in
                    for y in rows {
                        let source = pixels.baseAddress! + y * image.stride + originX
                        let noiseRow = deviates.baseAddress! + noiseOffsets[y]
                        let row = (base + y * bytesPerRow).assumingMemoryBound(to: UInt16.self)
                        let channelScale = scale * rowLight[y]
                        let rowScale = channelScale[y & 1] * even + channelScale[(y & 1) + 1] * odd
                        for x in Swift.stride(from: 0, to: width, by: 8) {
                            let packed = UnsafeRawPointer(source + x).loadUnaligned(as: SIMD8<UInt32>.self)
                            // R G R G … on even rows, G B G B … on odd rows (originX is even).
                            let first = PackedRadiance.mantissa(packed, channel: y & 1)
                            let second = PackedRadiance.mantissa(packed, channel: (y & 1) + 1)
                            let mean = (first * even + second * odd) * PackedRadiance.unitScale(packed)
                            let values = noise.quantize(mean * rowScale, deviates: load(noiseRow + x), pedestal: pedestal) &>> shift
                            storeLittleEndian(SIMD8<UInt16>(truncatingIfNeeded: values), row + x, count: min(8, width - x))
                        }
                    }
                }
            }
        }
    }
}

@inline(__always)
private func load(_ pointer: UnsafePointer<Float>) -> SIMD8<Float> {
    UnsafeRawPointer(pointer).loadUnaligned(as: SIMD8<Float>.self)
}

/// The first `count` lanes of `samples` at `pointer`, little-endian: the eight at once where they are.
@inline(__always)
private func storeLittleEndian(_ samples: SIMD8<UInt16>, _ pointer: UnsafeMutablePointer<UInt16>, count: Int) {
    #if _endian(little)
    if count == 8 {
        UnsafeMutableRawPointer(pointer).storeBytes(of: samples, as: SIMD8<UInt16>.self)
        return
    }
    #endif
    for lane in 0..<count { pointer[lane] = samples[lane].littleEndian }
}

@inline(__always)
private func store(_ values: SIMD8<Int32>, _ pointer: UnsafeMutablePointer<Int32>) {
    UnsafeMutableRawPointer(pointer).storeBytes(of: values, as: SIMD8<Int32>.self)
}
