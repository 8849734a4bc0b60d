/// The sun, other light sources and bright sky, found on a frame's cell grid.
///
/// Light sources are compact clipped blobs (the sun, lamps, specular highlights), standing apart
/// from other clipped blobs (sky through a lattice is not a row of lamps), grown outward
/// through their glare while it stays at least twice as bright as the sky or wall around it. Sky is
/// a separate class: large bright regions touching the top of the frame. Sun-aware metering leaves
/// light sources out; sky stays in, since it is part of the picture.
public struct HighlightMask: Sendable, Hashable {
    public enum Kind: UInt8, Sendable {
        case none = 0, lightSource = 1, sky = 2
    }

    public let columns: Int
    public let rows: Int
    /// One `Kind` raw value per cell, row-major: the viewfinder's overlay.
    public let kinds: [UInt8]
    /// Fraction of samples on light sources and their glare.
    public let sunFraction: Double
    /// Fraction of samples on what looked like light sources and their glare — every compact blob,
    /// standing apart or not — before the broken-sky rule (`maximumLightSourceFraction`) turned
    /// them back.
    public let apparentSourceFraction: Double
    public let skyFraction: Double
    /// Number of separate light sources found.
    public let lightSourceCount: Int
    /// Clipped fraction of the samples outside light sources: the highlight budget's measure.
    public let nonSunClippedFraction: Double

    /// A clipped blob larger than this fraction of the frame, or one of blobs a cell apart that
    /// together are, is sky or a wall, not a light source.
    static let maximumSourceFraction = 0.03
    /// A light source fills at least this much of its bounding box (a disk fills 0.79).
    static let minimumSourceFill = 0.35
    /// Light sources with their glare never cover more than this fraction of the frame.
    public static let maximumLightSourceFraction = 0.2
    /// Bright regions smaller than this fraction of the frame are not sky.
    static let minimumSkyFraction = 0.05

    /// The frame's median linear luminance, which sets the level bright sky must reach.
    private let medianLinear: Double

    /// Finds the highlights on `cells`; `medianLinear` is the frame's median linear luminance. Light
    /// sources covering more than `lightSourceLimit` of the frame are taken for broken sky. Cells
    /// `remembered` as light sources on earlier frames (of the same grid; another is ignored) stay
    /// light sources while they are clipped (`StreamAnalyzer`), unless this frame's blobs are
    /// broken sky.
    init(cells: CellGrid, medianLinear: Double, lightSourceLimit: Double = HighlightMask.maximumLightSourceFraction,
         remembered: [Bool]? = nil) {
        self.medianLinear = medianLinear
        columns = cells.columns
        rows = cells.rows
        let count = columns * rows
        let means = (0..<count).map { Float(cells.mean($0) ?? 0) }
        let clipped = (0..<count).map { cells.sampleCounts[$0] > 0 && cells.clippedCounts[$0] * 2 >= cells.sampleCounts[$0] }
        var marks = [UInt8](repeating: Kind.none.rawValue, count: count)
        let grid = CellNeighborhood(columns: columns, rows: rows)

        var clusterSizes: [Int]?  // found when the first compact blob needs them
        var sources = 0
        // Every compact blob with its glare, whether it stands apart or not: what looks like light sources.
        var apparent = [Bool](repeating: false, count: count)
        for blob in grid.components(where: { clipped[$0] }) {
            let box = grid.boundingBox(blob)
            let compact = Double(blob.count) <= HighlightMask.maximumSourceFraction * Double(count)
                && Double(blob.count) >= HighlightMask.minimumSourceFill * Double(box.area)
            guard compact else { continue }
            let background = grid.ringMedian(around: box, values: means, excluding: clipped)
            let lit = grid.grow(from: blob, limit: box.radius * 8, where: { means[$0] >= 2 * background })
            for cell in lit { apparent[cell] = true }
            let sizes = clusterSizes ?? HighlightMask.clusterSizes(clipped, grid: grid)
            clusterSizes = sizes
            guard Double(sizes[blob[0]]) <= HighlightMask.maximumSourceFraction * Double(count) else { continue }
            sources += 1
            for cell in lit { marks[cell] = Kind.lightSource.rawValue }
        }

        func samples(where member: (Int) -> Bool) -> Int32 {
            (0..<count).reduce(0) { $0 + (member($1) ? cells.sampleCounts[$1] : 0) }
        }
        func samples(_ kind: Kind) -> Int32 { samples { marks[$0] == kind.rawValue } }
        let total = Double(cells.sampleCounts.reduce(0, +))
        apparentSourceFraction = total > 0 ? Double(samples { apparent[$0] }) / total : 0
        // So many light sources are clipped sky broken into blobs at a low exposure, not suns:
        // they are left to be sky or plain highlights.
        if apparentSourceFraction > lightSourceLimit {
            marks = [UInt8](repeating: Kind.none.rawValue, count: count)
            sources = 0
        } else if let remembered, remembered.count == count {
            let kept = (0..<count).map { remembered[$0] && clipped[$0] && marks[$0] == Kind.none.rawValue }
            for cell in 0..<count where kept[cell] { marks[cell] = Kind.lightSource.rawValue }
            sources += grid.components(where: { kept[$0] }).count
        }

        let brightLevel = Float(max(0.25, 2 * medianLinear))
        for region in grid.components(where: { means[$0] >= brightLevel && marks[$0] == Kind.none.rawValue })
        where Double(region.count) >= HighlightMask.minimumSkyFraction * Double(count) && region.contains(where: { $0 < cells.columns }) {
            for cell in region { marks[cell] = Kind.sky.rawValue }
        }

        let sunSamples = Double(samples(.lightSource))
        let nonSunClipped = (0..<count).reduce(0) { $0 + (marks[$1] == Kind.lightSource.rawValue ? 0 : Int(cells.clippedCounts[$1])) }
        kinds = marks
        lightSourceCount = sources
        sunFraction = total > 0 ? sunSamples / total : 0
        skyFraction = total > 0 ? Double(samples(.sky)) / total : 0
        nonSunClippedFraction = total > sunSamples ? Double(nonSunClipped) / (total - sunSamples) : 0
    }

    /// Per clipped cell, the clipped cells of its cluster: blobs a cell apart or less count as one
    /// clipped region, as sky seen through a lattice or leaves is one region much larger than a
    /// lamp, broken up by thin dark bars, while lamps and the sun stand apart.
    private static func clusterSizes(_ clipped: [Bool], grid: CellNeighborhood) -> [Int] {
        var near = clipped
        for cell in clipped.indices where !clipped[cell] {
            grid.forEachNeighbor(of: cell) { if clipped[$0] { near[cell] = true } }
        }
        var sizes = [Int](repeating: 0, count: clipped.count)
        for cluster in grid.components(where: { near[$0] }) {
            let size = cluster.reduce(0) { $0 + (clipped[$1] ? 1 : 0) }
            for cell in cluster { sizes[cell] = size }
        }
        return sizes
    }

    /// The mask of the same `cells` with every light source taken for sky (`FrameStatistics.withoutLightSources`).
    func withoutLightSources(_ cells: CellGrid) -> HighlightMask {
        HighlightMask(cells: cells, medianLinear: medianLinear, lightSourceLimit: 0)
    }

    /// The mask of the same `cells` keeping the clipped cells of `remembered` as light sources
    /// (`FrameStatistics.remembering`).
    func remembering(_ remembered: [Bool], cells: CellGrid) -> HighlightMask {
        HighlightMask(cells: cells, medianLinear: medianLinear, remembered: remembered)
    }

    public func kind(column: Int, row: Int) -> Kind { Kind(rawValue: kinds[row * columns + column]) ?? .none }
}
