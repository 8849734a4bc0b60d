/// Conversion of any pixel format to packed 8-bit RGB, the common form for still-image encoders
/// (PNG, JPEG) and for looking at a frame.
extension PixelBuffer {
    /// The image as packed 8-bit R, G, B (3 bytes per pixel, rows `width × 3` bytes, no padding).
    ///
    /// - bgra8: channels reordered, alpha dropped.
    /// - nv12: BT.709 Y'CbCr in the buffer's range (video 16…235/240 or full 0…255); each chroma
    ///   sample covers its 2×2 block of pixels.
    /// - yuyv422: BT.709, video range; each chroma pair covers two pixels.
    /// - gray8: the luma in all three channels.
    /// - bayer16: bilinear demosaic (each missing colour is the mean of that colour's samples in
    ///   the 3×3 neighbourhood); samples are scaled linearly from `significantBits` to 8 bits with
    ///   no white balance or tone curve, so the result looks like the raw sensor data.
    public func rgb8() -> [UInt8] {
        switch format {
        case .bgra8:
            let bgra = bytes(plane: 0)
            return rgb(from: bgra, stride: 4) { pixel in (bgra[pixel + 2], bgra[pixel + 1], bgra[pixel]) }
        case .gray8:
            let luma = bytes(plane: 0)
            return rgb(from: luma, stride: 1) { pixel in (luma[pixel], luma[pixel], luma[pixel]) }
        case .nv12(let range):
            return nv12RGB(range: range)
        case .yuyv422:
            return yuyvRGB()
        case .bayer16(let pattern, let bits):
            return bayerRGB(pattern: pattern, significantBits: bits)
        }
    }

    /// Packs one RGB triple per pixel of a one-plane format whose pixels are `stride` bytes.
    private func rgb(from plane: [UInt8], stride: Int, _ pixel: (Int) -> (UInt8, UInt8, UInt8)) -> [UInt8] {
        var result = [UInt8]()
        result.reserveCapacity(width * height * 3)
        for index in 0..<(width * height) {
            let (r, g, b) = pixel(index * stride)
            result.append(contentsOf: [r, g, b])
        }
        return result
    }

    private func nv12RGB(range: YCbCrRange) -> [UInt8] {
        let luma = bytes(plane: 0)
        let chroma = bytes(plane: 1)
        let conversion = YCbCr709(range: range)
        var result = [UInt8]()
        result.reserveCapacity(width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let pair = (y / 2) * width + (x / 2) * 2
                result.append(contentsOf: conversion.rgb(y: luma[y * width + x], cb: chroma[pair], cr: chroma[pair + 1]))
            }
        }
        return result
    }

    private func yuyvRGB() -> [UInt8] {
        let packed = bytes(plane: 0)
        let conversion = YCbCr709(range: .video)
        var result = [UInt8]()
        result.reserveCapacity(width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let row = y * width * 2
                let pair = row + (x / 2) * 4
                result.append(contentsOf: conversion.rgb(y: packed[row + x * 2], cb: packed[pair + 1], cr: packed[pair + 3]))
            }
        }
        return result
    }

    private func bayerRGB(pattern: BayerPattern, significantBits: Int) -> [UInt8] {
        let maximum = (1 << significantBits) - 1
        let words = bytes(plane: 0)
        func sample(_ x: Int, _ y: Int) -> Int {
            let index = (y * width + x) * 2
            return min(Int(words[index]) | Int(words[index + 1]) << 8, maximum)
        }
        var result = [UInt8]()
        result.reserveCapacity(width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                var sums = [0, 0, 0]
                var counts = [0, 0, 0]
                let own = pattern.channel(x: x, y: y)
                for ny in max(y - 1, 0)...min(y + 1, height - 1) {
                    for nx in max(x - 1, 0)...min(x + 1, width - 1) {
                        let channel = pattern.channel(x: nx, y: ny)
                        guard channel != own || (nx == x && ny == y) else { continue }
                        sums[channel] += sample(nx, ny)
                        counts[channel] += 1
                    }
                }
                for channel in 0..<3 {
                    // Rounded sum × 255 / (count × maximum): the mean scaled to 0…255.
                    let denominator = counts[channel] * maximum
                    result.append(UInt8((sums[channel] * 255 + denominator / 2) / denominator))
                }
            }
        }
        return result
    }
}

extension BayerPattern {
    /// The colour filter over pixel (`x`, `y`): 0 red, 1 green, 2 blue.
    fileprivate func channel(x: Int, y: Int) -> Int {
        switch self {
        case .rggb:
            switch (x.isMultiple(of: 2), y.isMultiple(of: 2)) {
            case (true, true): 0
            case (false, false): 2
            default: 1
            }
        }
    }
}

/// BT.709 Y'CbCr → R'G'B' (Kr = 0.2126, Kb = 0.0722) for one quantisation range.
private struct YCbCr709 {
    let lumaOffset: Float
    let lumaScale: Float
    let chromaScale: Float

    init(range: YCbCrRange) {
        switch range {
        case .video: (lumaOffset, lumaScale, chromaScale) = (16, 219, 224)
        case .full: (lumaOffset, lumaScale, chromaScale) = (0, 255, 255)
        }
    }

    func rgb(y: UInt8, cb: UInt8, cr: UInt8) -> [UInt8] {
        let kr: Float = 0.2126, kb: Float = 0.0722, kg = 1 - kr - kb
        let luma = (Float(y) - lumaOffset) / lumaScale
        let pb = (Float(cb) - 128) / chromaScale
        let pr = (Float(cr) - 128) / chromaScale
        let r = luma + 2 * (1 - kr) * pr
        let g = luma - 2 * kb * (1 - kb) / kg * pb - 2 * kr * (1 - kr) / kg * pr
        let b = luma + 2 * (1 - kb) * pb
        return [r, g, b].map { UInt8((min(max($0, 0), 1) * 255).rounded()) }
    }
}
