import CameraCore
import Foundation

/// Frames and files for the filter tests.
enum TestFrames {
    /// A bgra8 frame whose pixel (x, y) is `colour(x, y)` as (red, green, blue, alpha).
    static func bgra(width: Int, height: Int, _ colour: (Int, Int) -> SIMD4<UInt8>) throws -> PixelBuffer {
        let buffer = try PixelBuffer(format: .bgra8, width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                buffer.set(x, y, colour(x, y))
            }
        }
        return buffer
    }

    /// 256×256 pixels holding every 8-bit value of each channel: red is x, green is y, blue and
    /// alpha run through all values along each row and column at other rates.
    static func everyValue() throws -> PixelBuffer {
        try bgra(width: 256, height: 256) { x, y in
            SIMD4(UInt8(x), UInt8(y), UInt8((x + 7 * y) & 255), UInt8((3 * x + y) & 255))
        }
    }

    /// A fresh empty directory for files a test writes.
    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("camerafilters-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes `text` to `name` in a fresh directory and returns its path.
    static func file(_ name: String, _ text: String) throws -> String {
        let url = try directory().appendingPathComponent(name)
        try text.write(to: url, atomically: false, encoding: .utf8)
        return url.path
    }
}

extension PixelBuffer {
    /// The (red, green, blue, alpha) of bgra8 pixel (x, y).
    func rgba(_ x: Int, _ y: Int) -> SIMD4<UInt8> {
        SIMD4(self[plane: 0, x: 4 * x + 2, y: y], self[plane: 0, x: 4 * x + 1, y: y],
              self[plane: 0, x: 4 * x, y: y], self[plane: 0, x: 4 * x + 3, y: y])
    }

    func set(_ x: Int, _ y: Int, _ colour: SIMD4<UInt8>) {
        self[plane: 0, x: 4 * x + 2, y: y] = colour.x
        self[plane: 0, x: 4 * x + 1, y: y] = colour.y
        self[plane: 0, x: 4 * x, y: y] = colour.z
        self[plane: 0, x: 4 * x + 3, y: y] = colour.w
    }
}
