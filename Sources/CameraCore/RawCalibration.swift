/// What an image pipeline needs to know to turn a camera's raw samples into linear colour: the
/// pedestal the sensor adds, the level it clips at, and the matrix from its colour filters'
/// response to linear Rec. 709 (DNG's BlackLevel, WhiteLevel and the inverse of ColorMatrix).
public struct RawCalibration: Sendable, Hashable {
    /// The raw value of no light, in the frame's significant bits.
    public var blackLevel: Int
    /// The raw value the sensor clips at, in the frame's significant bits.
    public var whiteLevel: Int
    /// Camera RGB (white-balanced, black-subtracted, 1 = white level) → linear Rec. 709 RGB,
    /// row-major 3×3; each row sums to 1, so white stays white.
    public var colorMatrix: [Double]
    /// How far above the white level samples hold real light, in units of it: 1 for a sensor's
    /// frame (it clips there), more for a merged bracket whose shorter frames saw past it.
    public var headroom: Double
    /// The sensor's noise, when the camera knows it: what merging frames weighs them by.
    public var noise: SensorNoise?

    public init(blackLevel: Int, whiteLevel: Int, colorMatrix: [Double] = RawCalibration.identity, headroom: Double = 1,
                noise: SensorNoise? = nil) {
        precondition(colorMatrix.count == 9, "a colour matrix has 9 entries, not \(colorMatrix.count)")
        precondition(blackLevel >= 0 && blackLevel < whiteLevel, "black level \(blackLevel) must be under the white level \(whiteLevel)")
        precondition(headroom >= 1, "headroom \(headroom) must be at least 1 (the white level)")
        self.blackLevel = blackLevel
        self.whiteLevel = whiteLevel
        self.colorMatrix = colorMatrix
        self.headroom = headroom
        self.noise = noise
    }

    public static let identity: [Double] = [1, 0, 0, 0, 1, 0, 0, 0, 1]
}

/// A sensor's noise at analogue gain 1: the electrons that reach its white level, and the read
/// noise it adds (electrons, RMS). Shot noise follows from the first.
public struct SensorNoise: Sendable, Hashable {
    public var fullWellElectrons: Double
    public var readNoiseElectrons: Double

    public init(fullWellElectrons: Double, readNoiseElectrons: Double) {
        self.fullWellElectrons = fullWellElectrons
        self.readNoiseElectrons = readNoiseElectrons
    }
}
