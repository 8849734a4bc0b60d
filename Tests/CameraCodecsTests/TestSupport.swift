import CameraCore
import Foundation
import Testing

/// Builds Radiance files byte by byte, for inputs our encoder would never write.
enum HDRBytes {
    /// A header with the given magic, optional FORMAT line and resolution line.
    static func header(magic: String = "#?RADIANCE", format: String? = "32-bit_rle_rgbe",
                       resolution: String) -> [UInt8] {
        var text = magic + "\n# written by hand\n"
        if let format { text += "FORMAT=\(format)\n" }
        return Array((text + "\n" + resolution + "\n").utf8)
    }

    /// A file of `width` × `height` flat RGBE pixels.
    static func flat(width: Int, height: Int, pixels: [[UInt8]]) -> [UInt8] {
        precondition(pixels.count == width * height && pixels.allSatisfy { $0.count == 4 })
        return header(resolution: "-Y \(height) +X \(width)") + pixels.flatMap { $0 }
    }
}

/// A gradient over several orders of magnitude, with distinct channels, for round trips.
func sampleImage(width: Int, height: Int) -> RadianceImage {
    var image = RadianceImage(width: width, height: height)
    for y in 0..<height {
        for x in 0..<width {
            let peak = Float(pow(10, Double((x + 3 * y) % 9) - 3)) * (1 + Float(x % 7) / 7)
            image[x, y] = SIMD3(peak, peak * 0.6, peak * Float(y % 4 + 1) / 5)
        }
    }
    return image
}


