import CameraCore
import Foundation

/// A synthetic scene of eight stops, textured everywhere, in colour, and its bracket: each exposure
/// 8-bit, gamma 1/2.2, clipped where the scene is brighter than it holds — the −2 EV frame crushes the
/// left (dark) side, the +2 EV frame blows out the right (bright) side, the 0 EV frame both a little.
enum SyntheticBracket {
    /// The scene's linear RGB at (x, y): 2⁻⁶ to 2² left to right, warm, with a fine ±40% ripple (9 by 7
    /// pixels) on a coarse ±50% one (37 by 29), so that each of MEF-SSIM's scales sees structure.
    static func radiance(x: Int, y: Int, width: Int) -> SIMD3<Double> {
        let base = exp2(-6 + 8 * Double(x) / Double(width - 1))
        let fine = 1 + 0.4 * sin(2 * Double.pi * Double(x) / 9) * cos(2 * Double.pi * Double(y) / 7)
        let coarse = 1 + 0.5 * sin(2 * Double.pi * Double(x) / 37) * cos(2 * Double.pi * Double(y) / 29)
        return base * fine * coarse * SIMD3(1.1, 1.0, 0.8)
    }

    /// The scene exposed `ev` stops from 0, as bgra8.
    static func frame(width: Int, height: Int, ev: Double) throws -> PixelBuffer {
        try bgra8(width: width, height: height) { x, y in
            let linear = exp2(ev) * radiance(x: x, y: y, width: width)
            return SIMD3(encode(linear.x), encode(linear.y), encode(linear.z))
        }
    }

    /// The −2, 0 and +2 EV frames.
    static func frames(width: Int, height: Int) throws -> [PixelBuffer] {
        try [-2.0, 0, 2].map { try frame(width: width, height: height, ev: $0) }
    }

    /// Mertens et al.'s well-exposedness weight at one scale: each pixel the bracket's frames averaged
    /// with weights exp(−(v − ½)²/(2·0.2²)) multiplied over the channels, each weight map first
    /// averaged over 17×17 pixels — the smooth weights Mertens's pyramid blends with, without which the
    /// weights would follow the texture and break it. A fair fusion to score against.
    static func wellExposedBlend(_ bracket: [PixelBuffer]) throws -> PixelBuffer {
        let width = bracket[0].width, height = bracket[0].height
        let colours = bracket.map { frame in
            frame.rgb8().withUnsafeBufferPointer { rgb in
                (0..<(width * height)).map { i in SIMD3(Double(rgb[3 * i]), Double(rgb[3 * i + 1]), Double(rgb[3 * i + 2])) }
            }
        }
        let weights = colours.map { frame in
            boxBlurred(frame.map { colour in
                let offsets = colour / 255 - 0.5
                return exp(-(offsets * offsets).sum() / (2 * 0.2 * 0.2)) + 1e-12
            }, width: width, height: height, radius: 8)
        }
        return try bgra8(width: width, height: height) { x, y in
            let i = y * width + x
            let total = weights.reduce(0) { $0 + $1[i] }
            return zip(colours, weights).reduce(SIMD3<Double>()) { $0 + $1.1[i] / total * $1.0[i] }
        }
    }

    /// The mean of each (2·radius + 1)² neighbourhood, clamped at the edges.
    private static func boxBlurred(_ values: [Double], width: Int, height: Int, radius: Int) -> [Double] {
        (0..<(width * height)).map { i in
            let x = i % width, y = i / width
            var sum = 0.0, count = 0.0
            for v in max(y - radius, 0)...min(y + radius, height - 1) {
                for u in max(x - radius, 0)...min(x + radius, width - 1) {
                    sum += values[v * width + u]
                    count += 1
                }
            }
            return sum / count
        }
    }

    /// 255 · v^(1/2.2), clipped to 0…255.
    private static func encode(_ linear: Double) -> Double {
        255 * pow(min(max(linear, 0), 1), 1 / 2.2)
    }

    /// A bgra8 buffer whose R, G, B at (x, y) are `rgb(x, y)` rounded and clamped to 0…255, alpha 255.
    static func bgra8(width: Int, height: Int, _ rgb: (Int, Int) -> SIMD3<Double>) throws -> PixelBuffer {
        let buffer = try PixelBuffer(format: .bgra8, width: width, height: height)
        func byte(_ value: Double) -> UInt8 { UInt8(min(max(value.rounded(), 0), 255)) }
        for y in 0..<height {
            for x in 0..<width {
                let colour = rgb(x, y)
                buffer[plane: 0, x: 4 * x, y: y] = byte(colour.z)
                buffer[plane: 0, x: 4 * x + 1, y: y] = byte(colour.y)
                buffer[plane: 0, x: 4 * x + 2, y: y] = byte(colour.x)
                buffer[plane: 0, x: 4 * x + 3, y: y] = 255
            }
        }
        return buffer
    }
}
