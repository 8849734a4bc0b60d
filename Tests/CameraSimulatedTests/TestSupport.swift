import CameraCapture
import CameraCore
@testable import CameraSimulated

/// A small custom format, so debug-build tests render quickly.
func smallFormat(_ width: Int = 128, _ height: Int = 96, _ pixelFormat: PixelFormat = .bgra8, maxRate: Double = 30) -> DeviceFormat {
    DeviceFormat(size: PixelSize(width: width, height: height), pixelFormat: pixelFormat,
                 frameRateRanges: [FrameRateRange(minimum: 1, maximum: maxRate)])
}

/// The raw signal at full scale (12 bits): the white level less the black level.
let rawFullScale = Double(SensorModel.whiteLevel - SensorModel.blackLevel)

/// Raw 12-bit signal of a bayer16 frame inside `mask` (1 = keep), optionally only rows in `rows`:
/// each sample less the black level, so no light reads 0 (and read noise either side of it).
func rawValues(_ frame: Frame, mask: [UInt8]? = nil, rows: Range<Int>? = nil) -> [Double] {
    let buffer = frame.buffer
    var values: [Double] = []
    for y in rows ?? 0..<buffer.height {
        for x in 0..<buffer.width where mask.map({ $0[y * buffer.width + x] == 1 }) ?? true {
            values.append(Double(buffer[sample16: x, y: y]) - Double(SensorModel.blackLevel))
        }
    }
    return values
}

func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(values.count) }

func variance(_ values: [Double]) -> Double {
    let m = mean(values)
    return values.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(values.count - 1)
}

/// A streaming camera on `scene` delivering 12-bit raw frames, with an exposure and gain applied
/// from the first frame.
func rawCamera(_ scene: SimulatedScene, seconds: Double, gain: Double = 1, seed: UInt64 = 1,
               width: Int = 128, height: Int = 96) throws -> SimulatedCamera {
    let camera = try SimulatedCamera(scene: scene, format: smallFormat(width, height, .bayer16(.rggb, significantBits: 12)), seed: seed)
    try camera.updateControls {
        $0.exposureDuration = seconds
        $0.analogueGain = gain
    }
    try camera.startStreaming()
    return camera
}

/// A camera on `scene` in `format`, streaming.
func streamingCamera(_ scene: SimulatedScene, format: DeviceFormat = smallFormat(), seed: UInt64 = 1,
                     pacing: SimulatedCamera.Pacing = .virtual, bufferCount: Int = 4) throws -> SimulatedCamera {
    let camera = try SimulatedCamera(scene: scene, format: format, seed: seed, pacing: pacing, bufferCount: bufferCount)
    try camera.startStreaming()
    return camera
}
