import CameraCore

/// What a frame analysis covers and how finely.
public struct AnalysisConfiguration: Sendable, Hashable {
    /// The zone grid of linear means that metering weighs (16×12 by default).
    public var zoneColumns: Int
    public var zoneRows: Int
    /// Every `sampleStep`-th pixel of every `sampleStep`-th row feeds the histogram, the linear
    /// means, the colour means and the cell grid (the sun mask). Brightness and row means always
    /// use every pixel. 4 keeps histogram percentiles within one bin of the full frame.
    public var sampleStep: Int
    /// The part of the frame analysed.
    public var regionOfInterest: NormalizedRect

    public init(zoneColumns: Int = 16, zoneRows: Int = 12, sampleStep: Int = 4, regionOfInterest: NormalizedRect = .full) {
        precondition(zoneColumns > 0 && zoneRows > 0, "the zone grid needs at least one zone")
        precondition(sampleStep > 0, "the sampling step must be positive")
        self.zoneColumns = zoneColumns
        self.zoneRows = zoneRows
        self.sampleStep = sampleStep
        self.regionOfInterest = regionOfInterest
    }

    /// The most cells per zone side: the cell grid (sun mask, spot metering) is `cellsPerZone`
    /// times finer than the zones where the sampled image allows.
    static let maximumCellsPerZone = 8
}
