@testable import CameraCapture
import CameraCore
import CameraExposure
import CameraMetering
@testable import CameraStills
import Testing

/// Which frames a photo output's requests hold while they wait, counted on the buffer pool the
/// frames come from: a device has a handful of buffers, and a frame held is a buffer the
/// stream cannot fill.
@Suite("Photo requests and the device's buffers")
struct PhotoRequestBufferTests {
    /// A frame from `pool` as a stream hands it to its outputs through `connection`.
    static func frame(_ sequence: UInt64, from pool: BufferPool, connection: CaptureConnection) throws -> CapturedFrame {
        let buffer = try pool.makeBuffer()
        let metadata = FrameMetadata(exposureDuration: MediaTime(value: 1, timescale: 30), analogueGain: 8, baseISO: 50)
        let status = ThreeAStatus(exposureState: .converged, exposureError: 0, exposureBias: 0, focusState: .focused,
                                  whiteBalanceState: .converged)
        return CapturedFrame(frame: Frame(buffer: buffer, presentationTime: MediaTime(value: Int64(sequence), timescale: 30),
                                          sequenceNumber: sequence, metadata: metadata),
                             statistics: try FrameAnalyzer().analyze(buffer), threeA: status,
                             frameDuration: MediaTime(value: 1, timescale: 30), shown: connection.snapshot,
                             streamIndex: 0, sourceIsRaw: false, raw: nil)
    }

    /// In a burst of flash photos the requests beyond `maximumInFlight` wait their turn; each
    /// used to keep the frame current when it was made, so two of them with the output's newest
    /// frame and a frame output's took the four buffers a flash sequence needs, and the burst
    /// stalled until the requests' time limits.
    @Test("Flash requests waiting their turn, and the one whose flash sequence runs, hold no frame: only the newest is in use")
    func waitingFlashRequestsHoldNoFrame() async throws {
        let pool = try BufferPool(format: .gray8, width: 32, height: 24, capacity: 8)
        // A stream from a device with a flash, whose loop takes no request: each flash photo waits.
        let requests = FrameRequests(hasFlash: true, deliversRawFrames: false)
        let connection = CaptureConnection()
        connection.frameRequests = requests
        let photos = PhotoOutput(maximumInFlight: 1, frameWait: .seconds(60))
        photos.connected(through: connection)
        let shots = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for waiting in 0..<3 {
                    photos.receive(try Self.frame(UInt64(waiting), from: pool, connection: connection))
                    group.addTask { _ = try? await photos.capture(PhotoSettings(flashMode: .on)) }
                    // The request has taken the slot (the first) or is waiting for it.
                    while photos.readiness != .notReadyWaitingForProcessing || photos.requestsWaitingForTurn < waiting {
                        await Task.yield()
                    }
                }
            }
        }
        while photos.requestsWaitingForTurn < 2 { await Task.yield() }
        photos.receive(try Self.frame(3, from: pool, connection: connection))
        #expect(pool.buffersInUse == 1, "the requests hold \(pool.buffersInUse - 1) frames besides the newest")
        requests.close()
        try await shots.value
    }
}
