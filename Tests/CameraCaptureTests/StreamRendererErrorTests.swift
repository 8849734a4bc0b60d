@testable import CameraCapture
import CameraCore
import CameraISP
import Testing

/// What the capture loop's renderer says when a frame cannot be made into a picture: the cause,
/// typed, not a string under "invalid configuration".
@Suite("Stream renderer errors")
struct StreamRendererErrorTests {
    @Test("a raw frame without its calibration fails metering and the picture with the pipeline's own error")
    func rawFrameWithoutCalibration() throws {
        let buffer = try PixelBuffer(format: .bayer16(.rggb, significantBits: 10), width: 8, height: 8)
        let frame = Frame(buffer: buffer, presentationTime: .zero, sequenceNumber: 0,
                          metadata: FrameMetadata(exposureDuration: .zero, analogueGain: 1, baseISO: 50))
        let expected = CaptureError.processingFailed(.pipeline(.missingRawCalibration(buffer.format)))
        var renderer = StreamRenderer()
        #expect(throws: expected) { try renderer.meteringFrame(frame) }
        #expect(throws: expected) { try renderer.picture(frame, gain: .none, toneMapping: .local) }
        #expect(expected.description.hasPrefix("a frame could not be processed: the image pipeline failed: "), "\(expected)")
    }
}
