import CameraCapture
import CameraCore
import Foundation

/// One bracketed photo as the capture loop takes it (AVCapturePhotoBracketSettings' idea): the
/// exposure auto-exposure holds for the highlights is the base, and the exposures of the EV
/// offsets are held one per frame — white balance and focus as the base has them — so that on a
/// device whose controls queue per frame (the simulated camera, V4L2's control pipeline, Android's
/// burst requests) they land on consecutive frames. Frames are found by their metadata
/// (`FrameMetadata.isMade(with:)`), never by counting; each stage happens once, in order.
///
/// When a frame made with a later exposure comes before the one awaited, the awaited one's frame
/// went by (a lost frame, or a control the device dropped or did not queue): it is held again,
/// and from then on each exposure is held until its frame comes, which works on any device.
///
/// An offset's exposure takes a longer or shorter duration first (up to the device's longest, past
/// one frame's time if need be: a longer duration gathers more light, where more gain only
/// amplifies the same), then gain. The frames are rendered for the viewfinder with the base's gain
/// moved by their own offset, so the preview holds still while the bracket runs.
struct BracketSequence {
    /// What the loop does after a frame.
    enum Step {
        /// Nothing new: wait for the next frame.
        case wait
        /// Hold these controls from now on.
        case expose(SensorControls)
        /// Every exposure has its frame, in the order of the offsets.
        case captured([Frame])
        /// The bracket cannot finish; the message says what did not happen.
        case failed(String)
    }

    /// Frames the bracket may go without taking one, lost ones included: an exposure's controls
    /// reach the sensor two frames after they are set on the simulated camera, with room to spare.
    static let framesPerExposure = 8

    let offsets: [Double]
    /// The controls of each offset, in order.
    let exposures: [SensorControls]
    /// How the base exposure's frames are rendered.
    let renderGain: RenderGain
    /// The controls frames had before the bracket: a frame made with them may be one still in flight.
    private let base: SensorControls
    private let baseExposure: Double
    private var frames: [Frame] = []
    /// How many of `exposures` have been held, in order: ahead of `frames` while they are pipelined.
    private var held = 0
    /// Whether the next exposure is held on the next frame, or only once the last one's frame came.
    private var pipelined = true
    private var waited = 0

    /// The bracket of `offsets` (EV) around `base` on a device with `capabilities`, rendered for the
    /// viewfinder as `renderGain` renders the base; throws naming the offsets the device can reach
    /// from the base when one is beyond them.
    init(offsets: [Double], base: SensorControls, renderGain: RenderGain, capabilities: DeviceCapabilities) throws(PhotoCaptureError) {
        let total = base.exposureDuration * base.analogueGain * base.digitalGain
        let longest = capabilities.exposureDuration.upperBound * capabilities.analogueGain.upperBound * capabilities.digitalGain.upperBound
        let shortest = capabilities.exposureDuration.lowerBound * capabilities.analogueGain.lowerBound * capabilities.digitalGain.lowerBound
        let reach = log2(shortest / total)...log2(longest / total)
        if let outside = offsets.first(where: { !reach.contains($0) }) {
            throw .unsupported(String(format: "bracket offset %+.1f EV is beyond what this camera can expose from the current exposure "
                + "(%.0f µs at gain %.2f): %+.1f…%+.1f EV — choose offsets within that range", outside, base.exposureDuration * 1e6,
                base.analogueGain * base.digitalGain, reach.lowerBound, reach.upperBound))
        }
        (self.offsets, self.renderGain, self.base, baseExposure) = (offsets, renderGain, base, total)
        exposures = offsets.map { base.exposing(times: pow(2, $0), within: capabilities) }
    }

    /// How a frame made with `metadata` is rendered for the viewfinder: the base's gain, moved by
    /// how far the frame's exposure is from the base.
    func renderGain(for metadata: FrameMetadata) -> RenderGain {
        let offset = log2(metadata.totalExposure / baseExposure)
        return renderGain.movedBy(exposure: offset)
    }

    /// Takes the next frame from the device (the first: the frame the bracket starts on).
    mutating func advance(_ frame: Frame) -> Step {
        if frame.metadata.isMade(with: exposures[frames.count]) {
            // A copy: five frames held from the device's pool would leave it none to fill.
            frames.append(frame.copied())
            waited = 0
            if frames.count == exposures.count { return .captured(frames) }
        } else {
            if wentBy(frame.metadata) {
                (held, pipelined) = (frames.count, false)
            }
            if let failure = countWait(lost: false) { return failure }
        }
        return holdNext()
    }

    /// Takes a frame the device lost (dropped, skipped, or in a stream restart).
    mutating func frameLost() -> Step {
        countWait(lost: true) ?? .wait
    }

    /// Whether a frame made with `metadata` shows that the awaited exposure's frame went by: it was
    /// made with an exposure held after it, and not with the base's (frames from before the
    /// bracket may still be in flight).
    private func wentBy(_ metadata: FrameMetadata) -> Bool {
        !metadata.isMade(with: base) && exposures[..<held].dropFirst(frames.count + 1).contains { metadata.isMade(with: $0) }
    }

    /// The next exposure to hold: one per frame while pipelined, else once the last held one's frame came.
    private mutating func holdNext() -> Step {
        guard held < exposures.count, pipelined || held == frames.count else { return .wait }
        held += 1
        return .expose(exposures[held - 1])
    }

    private mutating func countWait(lost: Bool) -> Step? {
        waited += 1
        guard waited > Self.framesPerExposure else { return nil }
        let exposure = exposures[frames.count]
        return .failed(String(format: "no frame came at the bracket's exposure %d of %d (%+.1f EV, %.0f µs) in %d frames%@",
                              frames.count + 1, exposures.count, offsets[frames.count], exposure.exposureDuration * 1e6,
                              Self.framesPerExposure, lost ? " — the camera lost frames meanwhile" : ""))
    }
}
