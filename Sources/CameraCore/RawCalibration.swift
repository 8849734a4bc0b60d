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

    public init(blackLevel: Int, whiteLevel: Int, colorMatrix: [Double] = RawCalibration.identity) {
        precondition(colorMatrix.count == 9, "a colour matrix has 9 entries, not \(colorMatrix.count)")
        precondition(blackLevel >= 0 && blackLevel < whiteLevel, "black level \(blackLevel) must be under the white level \(whiteLevel)")
        self.blackLevel = blackLevel
        self.whiteLevel = whiteLevel
        self.colorMatrix = colorMatrix
    }

    public static let identity: [Double] = [1, 0, 0, 0, 1, 0, 0, 0, 1]
}
