import CameraCapture
import CameraCore

extension SimulatedCamera {
    /// The frame stream in one format and frame rate: its buffer pool and its renderer (whose
    /// painted scene and lens image are cached between frames).
    ///
    /// A restart in another format or rate builds a new one; a frame scheduled on the old one
    /// still renders into the old pool with the old renderer, so sizes always agree.
    final class Stream: Sendable {
        let format: DeviceFormat
        let frameRate: Double
        let frameDuration: MediaTime
        /// Seconds between the exposure start of one row and the next.
        let rowReadoutTime: Double
        let pool: BufferPool
        /// The Bayer read-out's calibration; nil for the processed formats.
        let rawCalibration: RawCalibration?
        let renderer: Locked<Renderer>

        init(format: DeviceFormat, frameRate: Double, bufferCount: Int, scene: SimulatedScene, sensor: SensorModel) throws(PixelBufferError) {
            self.format = format
            self.frameRate = frameRate
            frameDuration = MediaTime.frameDuration(forRate: frameRate)
            rowReadoutTime = 0.8 / format.maximumFrameRate / Double(format.size.height)
            pool = try BufferPool(format: format.pixelFormat, width: format.size.width, height: format.size.height, capacity: bufferCount)
            if case .bayer16(_, let bits) = format.pixelFormat {
                rawCalibration = sensor.rawCalibration(significantBits: bits)
            } else {
                rawCalibration = nil
            }
            renderer = Locked(Renderer(scene: scene, viewSize: format.size, sensor: sensor))
        }

        /// Whether this stream delivers `settings`' format and frame rate.
        func matches(_ settings: DeviceSettings) -> Bool {
            format == settings.activeFormat && frameRate == settings.frameRate
        }
    }
}
