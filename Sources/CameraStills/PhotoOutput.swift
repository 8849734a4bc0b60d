import CameraCapture
import CameraCodecs
import CameraCore
import CameraMetering
import Foundation

/// Still photos from a running session (AVCapturePhotoOutput): each accepted request goes through
/// willBegin → willCapture → didCapture → didFinishProcessing → didFinishCapture exactly once,
/// failed ones too (the error arrives with didFinishProcessing).
///
/// Requests may overlap; at most `maximumInFlight` are processed at once and later ones wait
/// their turn (back-pressure, never a silent drop). With zero shutter lag the photo is the frame
/// that was current when the request was made, kept from the stream, not the next one.
///
/// Flash `on`, or `auto` when the frame current at the request shows a dim scene
/// (`SceneFlags.lowLight`), fires the camera's flash: the session holds the exposure, fires a
/// pre-flash to measure the subject (`FlashExposure`), then the flash whose frame is the photo. A
/// flash photo is never zero shutter lag — the flash can only fire after the request — and the
/// flash photos of a stream are taken one after another, each with its own flash frames. On a
/// camera without a flash, `on` fails naming the problem and `auto` never fires.
///
/// ```swift
/// let photos = PhotoOutput()
/// try await session.configure { try $0.add(photos) }
/// let photo = try await photos.capture(PhotoSettings(format: .jpeg(quality: 90)))
/// ```
public final class PhotoOutput: CaptureOutput {
    /// Whether a request made now would start at once (AVCapturePhotoOutput.CaptureReadiness).
    public enum Readiness: String, Sendable, Hashable {
        case ready
        /// No frame has arrived yet (the session is starting or interrupted).
        case notReadyMomentarily
        /// `maximumInFlight` requests are being processed; new ones wait.
        case notReadyWaitingForProcessing
    }

    /// EXIF Make and Model.
    public let make: String
    public let model: String
    /// The lens's focal length in millimetres (EXIF FocalLength).
    public let focalLength: Double
    public let maximumInFlight: Int
    /// How long a `.quality` request waits for auto-exposure to converge.
    public static let convergenceWait = Duration.milliseconds(500)
    /// How long a request waits for a frame before failing with `notRunning` (a flash photo, for
    /// each frame its flash sequence may take).
    public let frameWait: Duration

    private let state = Locked(State())

    public init(make: String = "CameraSun", model: String = "CameraSun camera", focalLength: Double = 4.0,
                maximumInFlight: Int = 8, frameWait: Duration = .seconds(2)) {
        precondition(maximumInFlight > 0, "a photo output needs at least one request in flight")
        self.make = make
        self.model = model
        self.focalLength = focalLength
        self.maximumInFlight = maximumInFlight
        self.frameWait = frameWait
    }

    public var readiness: Readiness {
        state.withLock { state in
            if state.inFlight >= maximumInFlight { return .notReadyWaitingForProcessing }
            return state.latest == nil ? .notReadyMomentarily : .ready
        }
    }

    /// Requests waiting for a frame (a later one, or the first): for status displays and tests.
    public var pendingFrameRequests: Int { state.withLock { $0.waiters.count } }

    /// Requests waiting for one of the `maximumInFlight` slots.
    var requestsWaitingForTurn: Int { state.withLock { $0.slotWaiters.count } }

    // MARK: CaptureOutput

    public func receive(_ frame: CapturedFrame) {
        // A frame a flash lit belongs to the flash photo that asked for it (through the stream's
        // flash), not to the requests waiting here.
        guard frame.metadata.flashPower == nil else { return }
        let ready = state.withLock { state in
            state.latest = frame
            return state.takeSatisfiedWaiters(by: frame)
        }
        for waiter in ready { waiter.continuation.resume(returning: frame) }
    }

    public func receive(_ drop: DroppedFrame) {}

    public func connected(through connection: CaptureConnection) {
        state.withLock { $0.connection = connection }
    }

    /// Frames keep their raw frame only while a RAW + JPEG request waits for its frame: a raw frame
    /// held is one of the device's few buffers, which a bracket needs. (A bracket's DNG is made of
    /// its own raw frames.)
    public var receivesRawFrames: Bool { state.withLock { $0.rawRequests > 0 } }

    // MARK: Capture

    /// Takes a photo with `settings`, reporting each stage to `events` (on the caller's task, in
    /// order, exactly once) and returning the photo. Throws after `didFinishCapture` when the
    /// request failed; a reused settings id fails before `willBegin`.
    public func capture(_ settings: PhotoSettings, events: (@Sendable (PhotoCaptureEvent) -> Void)? = nil) async throws(PhotoCaptureError) -> CapturedPhoto {
        let notify = events ?? { _ in }
        // Only a photo that may be the frame current at the request keeps it while it waits its
        // turn: the device has few buffers, and a flash sequence or a later frame needs them.
        // A single-frame RAW + JPEG photo needs a frame that kept its raw frame: the current one if
        // it did, else the next (which does, as this request asks for them).
        let needsRaw = settings.needsRawFrame
        var request = try state.withLock { (state: inout State) throws(PhotoCaptureError) -> RequestFrame in
            guard state.usedIDs.insert(settings.uniqueID).inserted else { throw .reusedSettings(uniqueID: settings.uniqueID) }
            if needsRaw { state.rawRequests += 1 }
            guard let latest = state.latest else { return RequestFrame(frame: nil, flash: nil, sequence: nil) }
            let flash = FlashDecision(settings.flashMode, judgedBy: latest, hasFlash: state.streamHasFlash)
            let keeps = !flash.fires && (settings.zeroShutterLag || settings.qualityPrioritization == .speed)
                && Waiter.hasRaw(latest, ifNeeded: needsRaw)
            return RequestFrame(frame: keeps ? latest : nil, flash: flash, sequence: latest.sequenceNumber)
        }
        defer { if needsRaw { state.withLock { $0.rawRequests -= 1 } } }
        try validate(settings)
        await acquireSlot()
        defer { releaseSlot() }
        notify(.willBegin(settings))
        let captureDate = Date()
        notify(.willCapture)
        let result: Result<CapturedPhoto, PhotoCaptureError>
        var captured = false
        do {
            let shot: (frame: CapturedFrame, flash: PhotoFlash, bracket: BracketCapture?)
            if let offsets = settings.bracket {
                let bracket = try await shootBracket(offsets)
                shot = (bracket.frame, PhotoFlash(mode: .off, isAvailable: streamHasFlash, exposure: nil), bracket)
            } else {
                shot = try await shoot(settings, current: &request.frame, flash: request.flash, after: request.sequence)
            }
            notify(.didCapture)
            captured = true
            result = .success(try await process(shot.frame, bracket: shot.bracket, flash: shot.flash, settings: settings,
                                                captureDate: captureDate, sequenceAtRequest: request.sequence))
        } catch {
            // A request that got no frame still passes every stage, so each is reported exactly once.
            if !captured { notify(.didCapture) }
            result = .failure(error)
        }
        notify(.didFinishProcessing(result))
        notify(.didFinishCapture)
        return try result.get()
    }

    private func validate(_ settings: PhotoSettings) throws(PhotoCaptureError) {
        if case .jpeg(let quality) = settings.format, !JPEGEncoder.qualityRange.contains(quality) {
            throw .unsupported("JPEG quality \(quality) is outside 1…100 — choose a quality in that range")
        }
        if let size = settings.maximumDimensions, size.width < 16 || size.height < 16 {
            throw .unsupported("maximum dimensions \(size) are too small — ask for at least 16x16")
        }
        if settings.keepsBracketFrames && settings.bracket == nil {
            throw .unsupported("each bracket frame was asked for, but no bracket — give the bracket's offsets too, or take the photo alone")
        }
        if let offsets = settings.bracket {
            try PhotoSettings.checkBracket(offsets)
            if settings.flashMode != .off {
                throw .unsupported("flash \(settings.flashMode.rawValue) with a bracket — a bracketed photo is taken without the flash; turn it off")
            }
        }
    }

    /// The photo's frame and what the flash did for it: the frame the main flash lit when the
    /// flash fires, else the one `chooseFrame` picks — `current`, the frame kept from the
    /// request, or one after frame `sequence`. `flash` is nil when no frame had come by the
    /// request: the first one to come judges it then.
    private func shoot(_ settings: PhotoSettings, current: inout CapturedFrame?, flash: FlashDecision?,
                       after sequence: UInt64?) async throws(PhotoCaptureError) -> (frame: CapturedFrame, flash: PhotoFlash, bracket: BracketCapture?) {
        var decision = flash
        if settings.flashMode != .off, decision == nil {
            let first = try await nextFrame(after: nil, converged: false, within: frameWait)
            decision = FlashDecision(settings.flashMode, judgedBy: first, hasFlash: streamHasFlash)
            if decision?.fires == false { current = first }
        }
        switch decision {
        case .fire:
            let (flash, frame) = try await take(FlashRequest(), within: frameWait * FlashSequence.frameLimit, failure: PhotoCaptureError.flashFailed)
            return (frame, PhotoFlash(mode: settings.flashMode, isAvailable: true, exposure: flash.exposure), nil)
        case .missing:
            throw .unsupported("flash on: this camera has no flash — take the photo with flash off, or auto (which then never fires)")
        case .dark, nil:
            let frame = try await chooseFrame(for: settings, current: current, after: current?.sequenceNumber ?? sequence)
            let unlit = PhotoFlash(mode: settings.flashMode, isAvailable: streamHasFlash, exposure: nil)
            if let offset = PhotoOutput.shortfallOffset(settings, frame: frame), let bracket = await shootShortfallBracket(offset) {
                return (bracket.frame, unlit, bracket)
            }
            return (frame, unlit, nil)
        }
    }

    /// Whether the stream feeding the output has a flash.
    var streamHasFlash: Bool { state.withLock { $0.streamHasFlash } }

    /// Takes `sequence` through the stream feeding the output (`FrameRequests`): what it lacks said
    /// as unsupported, anything else as `failure` says it.
    func take<Sequence: FrameSequence>(_ sequence: Sequence, within limit: Duration,
                                       failure: (String) -> PhotoCaptureError) async throws(PhotoCaptureError) -> (Sequence, CapturedFrame) {
        guard let requests = state.withLock({ $0.connection?.frameRequests }) else { throw .notRunning }
        do {
            return try await requests.capture(sequence, for: self, within: limit)
        } catch {
            throw error.reason == .unsupported ? .unsupported(error.message) : failure(error.message)
        }
    }

    /// The frame the photo is made of: `current` (zero shutter lag), the next one after frame
    /// `sequence`, or the next converged one for `.quality` — one that kept its raw frame, on a raw
    /// stream, for a RAW + JPEG photo.
    private func chooseFrame(for settings: PhotoSettings, current: CapturedFrame?, after sequence: UInt64?) async throws(PhotoCaptureError) -> CapturedFrame {
        let raw = settings.needsRawFrame
        let current = current.flatMap { Waiter.hasRaw($0, ifNeeded: raw) ? $0 : nil }
        switch settings.qualityPrioritization {
        case .speed:
            if let current { return current }
        case .balanced:
            if settings.zeroShutterLag, let current { return current }
        case .quality:
            if let current, current.threeA.isSettled, settings.zeroShutterLag { return current }
            if let converged = try? await nextFrame(after: sequence, converged: true, raw: raw, within: PhotoOutput.convergenceWait) {
                return converged
            }
        }
        return try await nextFrame(after: settings.zeroShutterLag ? nil : sequence, converged: false, raw: raw, within: frameWait)
    }

    /// Waits for a frame later than `sequence` (any frame when nil), converged if asked, with its
    /// raw frame if asked and the stream is raw.
    func nextFrame(after sequence: UInt64?, converged: Bool, raw: Bool = false,
                   within limit: Duration) async throws(PhotoCaptureError) -> CapturedFrame {
        let id = state.withLock { state in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        let timeout = Task { [weak self] in
            try await Task.sleep(for: limit)
            let waiter = self?.state.withLock { state in state.removeWaiter(id) }
            waiter?.continuation.resume(returning: nil)
        }
        defer { timeout.cancel() }
        // A non-throwing continuation: Swift 6.3's release build of a throwing one returning this
        // struct inside a typed-throws function wrote the frame past its slot in the task's
        // allocator (AddressSanitizer, heap-buffer-overflow), corrupting the heap.
        let frame = await withCheckedContinuation { continuation in
            state.withLock { state in
                state.waiters.append(Waiter(id: id, after: sequence, converged: converged, raw: raw, continuation: continuation))
            }
        }
        guard let frame else { throw .notRunning }
        return frame
    }

    /// The photo of `frame` — or of `bracket` fused, when given — encoded on a thread of its own,
    /// off the Swift concurrency pool: an encode never suspends, so a burst of them would hold the
    /// pool's few threads and keep the capture loop and every task awaiting a photo from running.
    private func process(_ frame: CapturedFrame, bracket: BracketCapture?, flash: PhotoFlash, settings: PhotoSettings, captureDate: Date,
                         sequenceAtRequest: UInt64?) async throws(PhotoCaptureError) -> CapturedPhoto {
        try await onOwnThread { () throws(PhotoCaptureError) -> CapturedPhoto in
            guard let bracket else {
                return try self.encode(frame, raw: frame.raw, as: .single, flash: flash, settings: settings, captureDate: captureDate,
                                       sequenceAtRequest: sequenceAtRequest)
            }
            var photo = try self.encode(PhotoOutput.fused(bracket), raw: bracket.referenceFrame,
                                        as: .composite(of: bracket.frames.map(\.metadata.exposureDuration)), flash: flash,
                                        settings: settings, captureDate: captureDate, sequenceAtRequest: sequenceAtRequest)
            if settings.keepsBracketFrames {
                photo.bracketFrames = try bracket.frames.map { (raw) throws(PhotoCaptureError) in
                    try self.encode(PhotoOutput.picture(of: raw, in: bracket), raw: raw, as: .bracketFrame, flash: flash,
                                    settings: settings, captureDate: captureDate, sequenceAtRequest: sequenceAtRequest)
                }
            }
            return photo
        }
    }

    /// What a photo's picture is made of, as its EXIF says.
    private enum Composition {
        case single
        /// A bracket merged: the exposure times of its frames.
        case composite(of: [MediaTime])
        /// One frame of a bracket, kept on its own.
        case bracketFrame
    }

    /// `frame` as a JPEG with its EXIF, and the DNG of `raw` when the settings ask for `raw`.
    private func encode(_ frame: CapturedFrame, raw: Frame?, as composition: Composition, flash: PhotoFlash, settings: PhotoSettings,
                        captureDate: Date, sequenceAtRequest: UInt64?) throws(PhotoCaptureError) -> CapturedPhoto {
        guard case .jpeg(let quality) = settings.format else { throw .unsupported("only JPEG is available") }
        var exif = PhotoExif.metadata(for: frame, flash: flash, settings: settings, make: make, model: model,
                                      focalLength: focalLength, captureDate: captureDate)
        switch composition {
        case .single: break
        case .composite(let sources): (exif.exposureMode, exif.compositeSources) = (.bracket, sources)
        case .bracketFrame: exif.exposureMode = .bracket
        }
        let rawData = try settings.raw ? PhotoOutput.dng(of: raw, picture: frame.buffer, exif: exif) : nil
        do {
            let image = try PhotoOutput.fitted(frame.buffer, within: settings.maximumDimensions)
            let data = try JPEGEncoder().encode(image, quality: quality, exif: exif)
            return CapturedPhoto(settings: settings, data: data, rawData: rawData, size: PixelSize(width: image.width, height: image.height),
                                 presentationTime: frame.presentationTime, sequenceNumber: frame.sequenceNumber,
                                 sequenceAtRequest: sequenceAtRequest,
                                 metadata: frame.metadata, statistics: frame.statistics, threeA: frame.threeA,
                                 flash: flash, captureDate: captureDate)
        } catch {
            throw .processingFailed("\(error)")
        }
    }

    /// `buffer`, or a bgra8 copy scaled down to fit `bound`.
    private static func fitted(_ buffer: PixelBuffer, within bound: PixelSize?) throws -> PixelBuffer {
        let size = PixelSize(width: buffer.width, height: buffer.height)
        guard let bound, size.width > bound.width || size.height > bound.height else { return buffer }
        return try PreviewScaler.scaled(buffer, within: bound)
    }

    // MARK: In-flight limit

    private func acquireSlot() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let admitted = state.withLock { state in
                if state.inFlight < maximumInFlight {
                    state.inFlight += 1
                    return true
                }
                state.slotWaiters.append(continuation)
                return false
            }
            if admitted { continuation.resume() }
        }
    }

    private func releaseSlot() {
        let next = state.withLock { state in
            // A waiting request takes the slot over; otherwise it frees up.
            if state.slotWaiters.isEmpty {
                state.inFlight -= 1
                return nil as CheckedContinuation<Void, Never>?
            }
            return state.slotWaiters.removeFirst()
        }
        next?.resume()
    }
}

extension PhotoOutput {
    /// What a request keeps of the frame current when it was made: its sequence number, what
    /// the flash does, and the frame itself only while it may become the photo.
    struct RequestFrame {
        var frame: CapturedFrame?
        let flash: FlashDecision?
        let sequence: UInt64?
    }

    /// A request waiting for a frame.
    struct Waiter {
        let id: UInt64
        let after: UInt64?
        let converged: Bool
        let raw: Bool
        /// Resumed with the frame, or nil when none came in time.
        let continuation: CheckedContinuation<CapturedFrame?, Never>

        func isSatisfied(by frame: CapturedFrame) -> Bool {
            (after.map { frame.sequenceNumber > $0 } ?? true) && (!converged || frame.threeA.isSettled)
                && Self.hasRaw(frame, ifNeeded: raw)
        }

        /// Whether `frame` may be a photo that `needsRaw`: it kept its raw frame, or its stream
        /// has none (the photo then fails saying so).
        static func hasRaw(_ frame: CapturedFrame, ifNeeded needsRaw: Bool) -> Bool {
            !needsRaw || frame.raw != nil || !frame.sourceIsRaw
        }
    }

    struct State {
        /// The connection that feeds the output, through which it asks its stream for flash photos and brackets.
        var connection: CaptureConnection?
        var latest: CapturedFrame?
        var usedIDs: Set<UInt64> = []
        var waiters: [Waiter] = []
        var nextWaiterID: UInt64 = 0
        var inFlight = 0
        /// Single-frame RAW + JPEG requests not finished yet (`receivesRawFrames`).
        var rawRequests = 0
        var slotWaiters: [CheckedContinuation<Void, Never>] = []

        /// Whether the stream feeding the output has a flash.
        var streamHasFlash: Bool { connection?.frameRequests?.hasFlash ?? false }

        mutating func takeSatisfiedWaiters(by frame: CapturedFrame) -> [Waiter] {
            let ready = waiters.filter { $0.isSatisfied(by: frame) }
            if !ready.isEmpty { waiters.removeAll { $0.isSatisfied(by: frame) } }
            return ready
        }

        mutating func removeWaiter(_ id: UInt64) -> Waiter? {
            guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return waiters.remove(at: index)
        }
    }
}
