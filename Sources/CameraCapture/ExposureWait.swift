/// The wait for 3A to settle before a photo, a take or a stream begins, so that its first frame
/// already has the exposure and colour the camera settles on (as rpicam-apps lets AE and AWB
/// settle before it captures): the first settled frame, or the last one seen at the limit.
public struct ExposureWait: Sendable {
    /// The last frame seen: the first settled one, or the one current at the limit.
    public let frame: CapturedFrame
    /// False when the exposure had not settled within the limit.
    public let settled: Bool

    /// Watches `output`'s frames until one `isSettled`: at most `frameLimit` frames — auto-exposure
    /// converges in frames, however long each takes to come — and at most `limit` of wall-clock
    /// time. Nil when no frame at all arrived in that time or the waiting task was cancelled.
    public static func first(in output: VideoDataOutput, frames frameLimit: Int, within limit: Duration,
                             isSettled: @escaping @Sendable (CapturedFrame) -> Bool = { $0.threeA.isSettled }) async -> ExposureWait? {
        let frames = output.frames
        let watcher = Task { () -> ExposureWait? in
            var end: UInt64?, last: CapturedFrame?
            // The loop ends with nil when the deadline cancels this task.
            for await frame in frames {
                if isSettled(frame) { return ExposureWait(frame: frame, settled: true) }
                last = frame
                // Counted by sequence number: frames the watcher was too slow to see count too.
                let limit = end ?? frame.sequenceNumber + UInt64(frameLimit)
                if frame.sequenceNumber >= limit { break }
                end = limit
            }
            return last.map { ExposureWait(frame: $0, settled: false) }
        }
        let deadline = Task {
            try await Task.sleep(for: limit)
            watcher.cancel()
        }
        defer { deadline.cancel() }
        return await withTaskCancellationHandler { await watcher.value } onCancel: { watcher.cancel() }
    }
}
