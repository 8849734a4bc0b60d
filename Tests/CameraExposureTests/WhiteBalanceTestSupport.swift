import CameraCapture
import CameraCore
import CameraSimulated
import Foundation

/// 160x90 bgra8 at up to 30 fps: small, so debug-build tests render quickly.
let whiteBalanceFormat = DeviceFormat(size: PixelSize(width: 160, height: 90), pixelFormat: .bgra8,
                                      frameRateRanges: [FrameRateRange(minimum: 1, maximum: 30)])

/// A streaming camera on `scene` lit at `kelvin` (nil: the scene's own light), exposed so the
/// subject sits at its intent and nothing on it clips.
func whiteBalanceCamera(_ scene: SimulatedScene, kelvin: Double?, pixelFormat: PixelFormat = .bgra8) throws -> SimulatedCamera {
    let format = DeviceFormat(size: whiteBalanceFormat.size, pixelFormat: pixelFormat, frameRateRanges: whiteBalanceFormat.frameRateRanges)
    let camera = try SimulatedCamera(scene: scene, format: format)
    let seconds = scene.referenceExposure(viewSize: format.size)
    try camera.updateControls { $0.exposureDuration = seconds }
    try camera.setIlluminant(temperature: kelvin)
    try camera.startStreaming()
    return camera
}

/// Mean linear (sRGB-decoded) R, G, B of a bgra8 frame's pixels where `mask` is 1.
func meanLinearRGB(_ frame: Frame, mask: [UInt8]) -> SIMD3<Double> {
    let buffer = frame.buffer
    precondition(buffer.format == .bgra8 && mask.count == buffer.width * buffer.height)
    var sum = SIMD3<Double>.zero
    var count = 0
    for y in 0..<buffer.height {
        for x in 0..<buffer.width where mask[y * buffer.width + x] == 1 {
            let encoded = SIMD3(buffer[plane: 0, x: x * 4 + 2, y: y], buffer[plane: 0, x: x * 4 + 1, y: y], buffer[plane: 0, x: x * 4, y: y])
            sum += SIMD3(decodeSRGB(encoded.x), decodeSRGB(encoded.y), decodeSRGB(encoded.z))
            count += 1
        }
    }
    return sum / Double(max(count, 1))
}

private func decodeSRGB(_ value: UInt8) -> Double {
    let x = Double(value) / 255
    return x <= 0.040_45 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4)
}

extension SIMD3<Double> {
    /// 8-bit sRGB encoding of linear values in 0…1.
    var encodedSRGB: SIMD3<UInt8> {
        func encode(_ x: Double) -> UInt8 {
            UInt8(((x <= 0.003_130_8 ? 12.92 * x : 1.055 * pow(x, 1 / 2.4) - 0.055) * 255).rounded())
        }
        return SIMD3<UInt8>(encode(x), encode(y), encode(z))
    }
}
