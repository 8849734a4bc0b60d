import CameraCapture
import CameraCore
@testable import CameraMetering
import CameraSimulated
import Foundation
import Testing

// MARK: Hand-made buffers

/// A `width`×`height` buffer whose luma-carrying bytes are set by `luma(x, y)` and every other byte
/// (chroma, alpha) by `other`. bgra8 gets the value in all three colour channels.
func buffer(_ format: PixelFormat, width: Int, height: Int, other: UInt8 = 128,
            luma: (Int, Int) -> UInt8) throws -> PixelBuffer {
    let buffer = try PixelBuffer(format: format, width: width, height: height)
    for y in 0..<height {
        for x in 0..<width {
            let value = luma(x, y)
            switch format {
            case .bgra8:
                for channel in 0..<3 { buffer[plane: 0, x: x * 4 + channel, y: y] = value }
                buffer[plane: 0, x: x * 4 + 3, y: y] = other
            case .nv12:
                buffer[plane: 0, x: x, y: y] = value
                if y < height / 2 { buffer[plane: 1, x: x, y: y] = other }
            case .yuyv422:
                buffer[plane: 0, x: x * 2, y: y] = value
                buffer[plane: 0, x: x * 2 + 1, y: y] = other
            case .gray8:
                buffer[plane: 0, x: x, y: y] = value
            case .bayer16:
                Issue.record("no luma layout for \(format)")
            }
        }
    }
    return buffer
}

/// A bgra8 buffer filled with one colour.
func bgra(width: Int = 8, height: Int = 4, blue: UInt8, green: UInt8, red: UInt8) throws -> PixelBuffer {
    let buffer = try PixelBuffer(format: .bgra8, width: width, height: height)
    for y in 0..<height {
        for x in 0..<width {
            buffer[plane: 0, x: x * 4, y: y] = blue
            buffer[plane: 0, x: x * 4 + 1, y: y] = green
            buffer[plane: 0, x: x * 4 + 2, y: y] = red
            buffer[plane: 0, x: x * 4 + 3, y: y] = 255
        }
    }
    return buffer
}

/// Whether `format` stores video-range luma (16 = black, 235 = white).
func isVideoRange(_ format: PixelFormat) -> Bool {
    switch format {
    case .nv12(.video), .yuyv422: true
    default: false
    }
}

/// The full-range value of a stored luma byte in `format` (video range rescaled, rounded, clamped).
func fullRange(_ value: UInt8, in format: PixelFormat) -> Int {
    guard isVideoRange(format) else { return Int(value) }
    return Int(min(max(((Double(value) - 16) * 255 / 219).rounded(), 0), 255))
}

/// The exact sRGB decoding of an encoded value 0…1.
func srgbDecode(_ x: Double) -> Double {
    x <= 0.040_45 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4)
}

/// The linear value of an 8-bit encoded value.
func linear(_ value: Int) -> Double { srgbDecode(Double(value) / 255) }

/// `|actual − expected| ≤ tolerance · |expected|` (exact equality when `expected` is 0).
func relativelyClose(_ actual: Double, _ expected: Double, _ tolerance: Double = 1e-6) -> Bool {
    abs(actual - expected) <= tolerance * abs(expected)
}

// MARK: Random numbers


// MARK: Simulated frames

/// A small custom format, so debug-build tests render quickly.
func smallFormat(_ width: Int = 480, _ height: Int = 270, _ pixelFormat: PixelFormat = .bgra8) -> DeviceFormat {
    DeviceFormat(size: PixelSize(width: width, height: height), pixelFormat: pixelFormat,
                 frameRateRanges: [FrameRateRange(minimum: 1, maximum: 30)])
}

/// A streaming camera on `scene` whose first frame is exposed for `seconds` at analogue `gain`
/// (seconds beyond the longest exposure are made up with gain).
func simulatedCamera(_ scene: SimulatedScene, seconds: Double, gain: Double = 1, format: DeviceFormat = smallFormat(),
                     seed: UInt64 = 1) throws -> SimulatedCamera {
    let camera = try SimulatedCamera(scene: scene, format: format, seed: seed)
    let longest = camera.capabilities.exposureDuration.upperBound
    try camera.updateControls {
        $0.exposureDuration = min(seconds, longest)
        $0.analogueGain = gain * max(1, seconds / longest)
    }
    try camera.startStreaming()
    return camera
}

/// One frame of `scene` at its reference exposure (the subject at its intent).
func referenceFrame(_ scene: SimulatedScene, format: DeviceFormat = smallFormat(), seed: UInt64 = 1) async throws -> Frame {
    let camera = try simulatedCamera(scene, seconds: scene.referenceExposure(viewSize: format.size), format: format, seed: seed)
    return try await camera.nextFrame()
}

// MARK: Cells

/// The cell a pixel falls in, as `SampledPass` maps it: the pixel's sample index (`x / step`,
/// `y / step`) scaled onto the cell grid.
func cellIndex(x: Int, y: Int, size: PixelSize, step: Int, cells: CellGrid) -> Int {
    let sampledColumns = (size.width + step - 1) / step, sampledRows = (size.height + step - 1) / step
    let column = (x / step) * cells.columns / sampledColumns
    let row = (y / step) * cells.rows / sampledRows
    return row * cells.columns + column
}

/// The analyzer with a fixed sampling step of 4, so tests can count samples exactly (the default
/// step depends on the frame size).
let stepFour = FrameAnalyzer(configuration: AnalysisConfiguration(sampleStep: 4))
