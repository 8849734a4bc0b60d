import CameraCapture
import CameraCore
import CameraTestSupport

/// The description of the error `operation` throws, or nil when it does not throw.
func failure(of operation: () async throws -> Void) async -> String? {
    do {
        try await operation()
        return nil
    } catch {
        return "\(error)"
    }
}

/// Every event a session reported, once the session is gone (its stream then ends).
func allEvents(_ events: AsyncStream<SessionEvent>) async -> [SessionEvent] {
    var all: [SessionEvent] = []
    for await event in events { all.append(event) }
    return all
}

/// A session with `device` as input and `outputs`, retrying interruptions every millisecond.
func makeSession(_ device: ScriptedDevice, outputs: [VideoDataOutput] = []) async throws -> CaptureSession {
    let session = CaptureSession(interruptionRetryInterval: .milliseconds(1))
    try await session.configure { config in
        try config.add(DeviceInput(device))
        for output in outputs { try config.add(output) }
    }
    return session
}

extension VideoDataOutput.Frames.Iterator {
    /// Skips frames until the one numbered `sequence` or later.
    mutating func frame(numbered sequence: UInt64) async throws -> CapturedFrame {
        while let frame = await next() {
            if frame.sequenceNumber >= sequence { return frame }
        }
        throw CancellationError()
    }
}
