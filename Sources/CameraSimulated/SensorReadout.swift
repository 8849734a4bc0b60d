import CameraCore

/// The settings the sensor integrates one frame with.
struct ExposureValues: Hashable {
    var duration: Double
    var analogueGain: Double
    var digitalGain: Double
    var whiteBalance: WhiteBalanceGains
}

/// Reads a frame off the sensor: integrates the optical image, adds noise, clips, quantises and
/// writes the result in the buffer's pixel format. Keeps its lookup tables between frames.
struct SensorReadout {
    let model: SensorModel
    private var noise: (gain: Double, table: [Float]) = (.nan, [])
    private var output: (key: [Double], table: [UInt8]) = ([], [])
    private var rows: [UInt8] = []

    init(model: SensorModel) {
        self.model = model
    }

    /// Exposes `buffer` to the `buffer.width`-wide window of `image` starting at column `originX`,
    /// row `y` lit by `rowLight[y]` (the light's mean factor during that row's exposure).
    mutating func read(_ image: RadianceImage, originX: Int, exposure: ExposureValues, rowLight: [Float],
                       noise rng: inout SplitMix64, into buffer: PixelBuffer) {
        precondition(image.height == buffer.height && originX + buffer.width <= image.width,
                     "optical image \(image.size) does not cover a \(buffer.width)x\(buffer.height) view at column \(originX)")
        precondition(rowLight.count == buffer.height, "one light factor per row")
        if noise.gain != exposure.analogueGain {
            noise = (exposure.analogueGain, model.noiseTable(gain: exposure.analogueGain))
        }
        let scale = Float(model.meanRawValue(luminance: 1, exposure: exposure.duration, gain: exposure.analogueGain))
        if case .bayer16(_, let bits) = buffer.format {
            readMosaic(image, originX: originX, scale: scale, rowLight: rowLight, bits: bits, rng: &rng, into: buffer)
            return
        }
        let key = [exposure.whiteBalance.red, exposure.whiteBalance.green, exposure.whiteBalance.blue, exposure.digitalGain,
                   model.toneCurve == .sRGB ? 1 : 0]
        if output.key != key {
            output = (key, model.outputTable(whiteBalance: exposure.whiteBalance, digitalGain: exposure.digitalGain))
        }
        let width = buffer.width
        if rows.count != width * 6 { rows = [UInt8](repeating: 0, count: width * 6) }
        let writer = PixelRowWriter(buffer: buffer)
        image.samples.withUnsafeBufferPointer { samples in
            noise.table.withUnsafeBufferPointer { sigma in
                output.table.withUnsafeBufferPointer { lut in
                    NoiseSource.table.withUnsafeBufferPointer { gauss in
                        rows.withUnsafeMutableBufferPointer { scratch in
                            var y = 0
                            while y < buffer.height {
                                let pair = min(2, buffer.height - y)
                                for row in 0..<pair {
                                    let source = samples.baseAddress! + ((y + row) * image.width + originX) * 3
                                    SensorReadout.exposeRow(source, count: width, scale: scale * rowLight[y + row],
                                                            sigma: sigma.baseAddress!, lut: lut.baseAddress!,
                                                            gauss: gauss.baseAddress!, rng: &rng,
                                                            into: scratch.baseAddress! + row * width * 3)
                                }
                                writer.write(rgb: scratch.baseAddress!, rows: pair, at: y)
                                y += pair
                            }
                        }
                    }
                }
            }
        }
    }

    /// One row of R'G'B' bytes: signal, shot and read noise, clipping, 12-bit quantisation, LUT.
    @inline(__always)
    private static func exposeRow(_ source: UnsafePointer<Float>, count: Int, scale: Float, sigma: UnsafePointer<Float>,
                                  lut: UnsafePointer<UInt8>, gauss: UnsafePointer<Float>, rng: inout SplitMix64,
                                  into out: UnsafeMutablePointer<UInt8>) {
        let white = Float(SensorModel.whiteLevel)
        for x in 0..<count {
            let random = rng.next()
            for channel in 0..<3 {
                let mean = source[x * 3 + channel] * scale
                let deviation = sigma[Int(min(mean, white))]
                let noisy = mean + deviation * gauss[Int(truncatingIfNeeded: (random >> (channel * 16)) & 0xFFFF)]
                let raw = Int(min(max(noisy, 0), white) + 0.5)
                out[x * 3 + channel] = lut[channel * 4096 + raw]
            }
        }
    }

    /// A raw RGGB mosaic: one colour per pixel, no white balance or tone curve, scaled to `bits`.
    private func readMosaic(_ image: RadianceImage, originX: Int, scale: Float, rowLight: [Float], bits: Int,
                            rng: inout SplitMix64, into buffer: PixelBuffer) {
        let white = Float(SensorModel.whiteLevel)
        let shift = UInt16(12 - bits)
        let bytesPerRow = buffer.planes[0].bytesPerRow
        let base = buffer.baseAddress(plane: 0)
        image.samples.withUnsafeBufferPointer { samples in
            noise.table.withUnsafeBufferPointer { sigma in
                NoiseSource.table.withUnsafeBufferPointer { gauss in
                    for y in 0..<buffer.height {
                        let source = samples.baseAddress! + (y * image.width + originX) * 3
                        let row = (base + y * bytesPerRow).assumingMemoryBound(to: UInt16.self)
                        let rowScale = scale * rowLight[y]
                        for x in 0..<buffer.width {
                            let channel = (y & 1) + (x & 1)          // R G / G B
                            let mean = source[x * 3 + channel] * rowScale
                            let deviation = sigma[Int(min(mean, white))]
                            let noisy = mean + deviation * gauss[Int(truncatingIfNeeded: rng.next() & 0xFFFF)]
                            row[x] = (UInt16(min(max(noisy, 0), white) + 0.5) >> shift).littleEndian
                        }
                    }
                }
            }
        }
    }
}
