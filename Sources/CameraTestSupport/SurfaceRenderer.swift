import CameraCapture
import CameraCore

/// Paints a uniform grey surface into a buffer, as the sensor and its sRGB tone curve would.
enum SurfaceRenderer {
    /// Fills `buffer` with the linear level `linear` (clipped at 1), each colour channel scaled by
    /// its white-balance gain. Throws for formats other than gray8 and bgra8.
    static func fill(_ buffer: PixelBuffer, linear: Double, gains: WhiteBalanceGains, device: String) throws(CaptureError) {
        func byte(_ value: Double) -> UInt8 { UInt8((SRGB.encode(value) * 255).rounded()) }
        let plane = buffer.planes[0]
        switch buffer.format {
        case .gray8:
            let value = byte(linear)
            buffer.withUnsafeMutableBytes(plane: 0) { _ = $0.initializeMemory(as: UInt8.self, repeating: value) }
        case .bgra8:
            let pixel = [byte(linear * gains.blue), byte(linear * gains.green), byte(linear * gains.red), 255]
            buffer.withUnsafeMutableBytes(plane: 0) { bytes in
                for y in 0..<plane.height {
                    for x in 0..<(plane.rowLength / 4) {
                        for channel in 0..<4 { bytes[y * plane.bytesPerRow + x * 4 + channel] = pixel[channel] }
                    }
                }
            }
        default:
            throw .deviceFailure(device: device, detail: "the scripted camera renders gray8 and bgra8, not \(buffer.format) — choose one of those formats")
        }
    }
}
