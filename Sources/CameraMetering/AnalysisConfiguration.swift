import CameraCore

/// What a frame analysis covers and how finely.
public struct AnalysisConfiguration: Sendable, Hashable {
    /// The zone grid of linear means that metering weighs (16×12 by default).
    public var zoneColumns: Int
    public var zoneRows: Int
    /// Every `sampleStep`-th pixel of every `sampleStep`-th row feeds the histogram, the linear
    /// means, the colour means and the cell grid (the sun mask); brightness and row means always
    /// use every pixel. nil (the default) picks the step that gives about `targetSampleCount`
    /// samples: 1 for small frames, 7 at 1080p, 14 at 4K — the histogram's accuracy depends on
    /// the number of samples, not on the frame size.
    public var sampleStep: Int?
    /// The part of the frame analysed.
    public var regionOfInterest: NormalizedRect

    public init(zoneColumns: Int = 16, zoneRows: Int = 12, sampleStep: Int? = nil, regionOfInterest: NormalizedRect = .full) {
        precondition(zoneColumns > 0 && zoneRows > 0, "the zone grid needs at least one zone")
        precondition((sampleStep ?? 1) > 0, "the sampling step must be positive")
        self.zoneColumns = zoneColumns
        self.zoneRows = zoneRows
        self.sampleStep = sampleStep
        self.regionOfInterest = regionOfInterest
    }

    /// The samples an automatic step aims for.
    public static let targetSampleCount = 40_000

    /// The sampling step for a region of `pixelCount` pixels.
    func step(forPixels pixelCount: Int) -> Int {
        sampleStep ?? max(1, Int((Double(pixelCount) / Double(AnalysisConfiguration.targetSampleCount)).squareRoot()))
    }

    /// The most cells per zone side: the cell grid (sun mask, spot metering) is `cellsPerZone`
    /// times finer than the zones where the sampled image allows.
    static let maximumCellsPerZone = 6
}
