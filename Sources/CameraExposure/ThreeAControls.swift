import CameraCore

/// The 3A engine's controls in one place, as the viewfinder's gestures use them: a tap meters
/// and/or focuses at a point, a long press locks exposure, focus and white balance together, and
/// each lock can also be set on its own.
public struct ThreeAControls: Sendable {
    public var exposure: AutoExposure
    public var focus: AutoFocus
    public var whiteBalance: AutoWhiteBalance
    /// The normalised device point focus is measured around (the centre until tapped).
    public private(set) var focusPoint = NormalizedPoint.center

    /// Which of the three loops are locked.
    public struct Locks: Sendable, Hashable {
        public var ae: Bool
        public var af: Bool
        public var awb: Bool

        public init(ae: Bool, af: Bool, awb: Bool) {
            self.ae = ae
            self.af = af
            self.awb = awb
        }
    }

    /// Half the side of the focus region, as a fraction of the frame.
    public static let focusRegionRadius = 0.1

    public init(program: ExposureProgram) throws(ValueOutOfRangeError) {
        exposure = AutoExposure(program: program)
        focus = try AutoFocus(mode: .continuous)
        whiteBalance = AutoWhiteBalance()
    }

    public var locks: Locks {
        Locks(ae: exposure.mode == .locked, af: focus.mode == .locked, awb: whiteBalance.mode == .locked)
    }

    /// The region whose sharpness drives focus: a square around the focus point, inside the frame.
    public var focusRegion: NormalizedRect {
        let r = ThreeAControls.focusRegionRadius
        let x = min(max(focusPoint.x - r, 0), 1 - 2 * r), y = min(max(focusPoint.y - r, 0), 1 - 2 * r)
        return NormalizedRect(x: x, y: y, width: 2 * r, height: 2 * r)
    }

    /// Meters (`exposure`) and/or focuses (`focus`) at `point` (tap to meter and focus). Focusing
    /// there searches once, as AVFoundation's autoFocus does; metering follows the point.
    public mutating func setPointOfInterest(_ point: NormalizedPoint, exposure meter: Bool = true, focus refocus: Bool = true) throws(ValueOutOfRangeError) {
        _ = try ValueOutOfRangeError.check(point.x, in: 0...1, setting: "point of interest x")
        _ = try ValueOutOfRangeError.check(point.y, in: 0...1, setting: "point of interest y")
        if meter { try exposure.setExposurePoint(point) }
        if refocus {
            focusPoint = point
            try focus.setMode(.autoOnce)
            focus.restart()
        }
    }

    /// Locks (true) or releases (false) any of the three; nil leaves one as it is. A released
    /// lock returns to continuous automatic operation.
    public mutating func setLocks(ae: Bool? = nil, af: Bool? = nil, awb: Bool? = nil) throws(ValueOutOfRangeError) {
        if let ae { try exposure.setMode(ae ? .locked : .continuousAuto) }
        if let af { try focus.setMode(af ? .locked : .continuous) }
        if let awb { try whiteBalance.setMode(awb ? .locked : .auto) }
    }

    /// The long press: exposure, focus and white balance locked together.
    public mutating func lockAll() throws(ValueOutOfRangeError) {
        try setLocks(ae: true, af: true, awb: true)
    }
}
