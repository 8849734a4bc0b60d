import CameraCore

/// How `AutoFocus` drives the lens. Lens positions run from 0 (the nearest focus distance) to 1
/// (infinity).
public enum FocusMode: Sendable, Hashable {
    /// Search once for the sharpest lens position, then hold the lens there.
    case autoOnce
    /// Search, hold, and search again when the focus region's sharpness stays down by
    /// `AutoFocus.Configuration.refocusChange` for `refocusFrames` frames (the subject moved).
    case continuous
    /// Hold the lens wherever it is; never move it.
    case locked
    /// Hold the lens at `lensPosition`, which must lie in `FocusMode.lensPositionRange`.
    case manual(lensPosition: Double)

    /// The lens positions a focus mode may ask for.
    public static let lensPositionRange: ClosedRange<Double> = 0...1

    /// Manual focus at `lensPosition`, checked against `lensPositionRange`.
    public static func manual(at lensPosition: Double) throws(ValueOutOfRangeError) -> FocusMode {
        .manual(lensPosition: try ValueOutOfRangeError.check(lensPosition, in: lensPositionRange, setting: "lens position"))
    }

    /// This mode, or a `ValueOutOfRangeError` naming the valid range when it is manual focus
    /// outside it.
    public func validated() throws(ValueOutOfRangeError) -> FocusMode {
        guard case .manual(let lensPosition) = self else { return self }
        return try .manual(at: lensPosition)
    }

    /// True for the modes that search (`autoOnce`, `continuous`).
    public var searches: Bool {
        switch self {
        case .autoOnce, .continuous: true
        case .locked, .manual: false
        }
    }
}

/// Where autofocus stands.
public enum FocusState: Sendable, Hashable {
    /// Stepping the lens and reading sharpness.
    case searching
    /// The lens rests at the sharpest position found.
    case focused
    /// The focus region has no texture (its sharpness did not change with the lens): the lens went
    /// back to where the search started.
    case failed
    /// Locked or manual mode: the lens is held.
    case locked
}

/// What the camera should do after `AutoFocus.update(sharpness:lensPosition:)`.
public enum FocusCommand: Sendable, Hashable {
    /// Request this lens position, then report the sharpness of a frame captured with it.
    case moveLens(to: Double)
    /// Nothing to move: focused, failed, locked, or at the manual position. (Continuous mode still
    /// wants every frame's sharpness, to notice when the subject moves.)
    case done
}

/// One sharpness reading and the lens position of the frame it came from.
public struct FocusSample: Sendable, Hashable {
    public var lensPosition: Double
    public var sharpness: Double

    public init(lensPosition: Double, sharpness: Double) {
        self.lensPosition = lensPosition
        self.sharpness = sharpness
    }
}
