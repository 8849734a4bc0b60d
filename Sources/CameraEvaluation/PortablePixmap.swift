import CameraCore
import Foundation

/// Binary PPM (P6, 8-bit RGB): how frames go to enfuse and come back, a format enfuse reads and writes
/// (through VIGRA) that needs no codec here.
enum PortablePixmap {
    /// The P6 file of an image's 8-bit RGB.
    static func encode(_ image: PixelBuffer) -> Data {
        Data("P6\n\(image.width) \(image.height)\n255\n".utf8) + Data(image.rgb8())
    }

    /// A bgra8 buffer (alpha 255) of an 8-bit P6 file, or nil when `data` is not one. Comments (`#` to the
    /// end of a line) may stand between the header's fields, and the samples are read as code values
    /// whatever the maximum value says: VIGRA, which enfuse writes through, gives the image's largest
    /// sample there (252 for a fusion whose brightest pixel is 252) and leaves the samples unscaled.
    static func decode(_ data: Data) -> PixelBuffer? {
        let bytes = [UInt8](data)
        var index = 0
        func field() -> Int? {
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "#") {
                    while index < bytes.count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
                } else if isWhitespace(bytes[index]) {
                    index += 1
                } else {
                    break
                }
            }
            let start = index
            while index < bytes.count && !isWhitespace(bytes[index]) { index += 1 }
            return Int(String(decoding: bytes[start..<index], as: UTF8.self))
        }
        guard bytes.starts(with: Array("P6".utf8)) else { return nil }
        index = 2
        guard let width = field(), let height = field(), let maximum = field(), (1...255).contains(maximum), width > 0, height > 0,
              bytes.count - (index + 1) == width * height * 3 else { return nil }
        return try? bytes[(index + 1)...].withUnsafeBytes { try PixelBuffer.bgra8(packed: $0, width: width, height: height, order: .rgb) }
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\t")
    }
}
