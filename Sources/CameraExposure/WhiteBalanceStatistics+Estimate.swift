import CameraCore
import Foundation

/// The light's colour from the cells: grey world over the cells lit by one light.
///
/// 1. Cells that can be grey: most of their samples kept, not near black, and near the Planckian
///    locus (a grey under some plausible light) — strongly coloured surfaces are left out.
/// 2. The light to balance for, where several light the frame: the subject's, when the exposure
///    has one (the median colour of the cells in its region — there each cell counts once, so the
///    brighter surroundings in the corners of its bounding box do not outvote it); otherwise the
///    cluster nearest daylight, when it holds `minimumShare` of the light (a colour checker in a
///    room of warm vegetables, a shaded face beside sunlit ground: correct least); otherwise the
///    cells' median weighted by the light they reflect (white patch: bright surfaces carry the
///    light's colour best — sunlit snow, not the blue sky above it).
/// 3. Except for the subject's, the reference then moves to the weighted mean colour of the cells
///    within `sameLightDistance` of it until it settles (mean shift) — the subject's median stays,
///    or bright surroundings in another light would draw it off step by step (backlit-portrait's
///    person toward its sunlit ground: 6080 K instead of 6450 K).
/// 4. Their grey world — the sum of their linear colours — is the light.
extension WhiteBalanceStatistics {
    /// The thresholds of the estimate.
    public struct Rejection: Sendable, Hashable {
        /// Cells with fewer than this fraction of their samples kept are left out.
        public var minimumKeptFraction = 0.5
        /// Cells whose mean linear luminance (before white balance) is below this are left out:
        /// noise and 8-bit steps dominate their colour.
        public var minimumLuminance = 0.002
        /// The largest distance, in natural-log units of (R/G, B/G), from the chromaticity of
        /// a grey under any light on the locus (2000…12000 K).
        public var maximumLocusDistance = 0.25
        /// Cells within this distance of each other's colour are taken to be lit by one light:
        /// backlit-portrait's person (6450 K) and its sunlit ground (5180 K) stand 0.29 apart;
        /// the sensor's noise spreads one surface's cells over about 0.05.
        public var sameLightDistance = 0.1
        /// The share of the cells' light the cluster nearest daylight must hold to be chosen:
        /// Carrots.hdr's grey patches and the chart hold 21%; stray cells near daylight in a
        /// scene under one coloured light (night-street's sodium) hold under 2%.
        public var minimumShare = 0.1

        public init() {}
    }

    /// The cells `grayWorld` sums: those lit by the light chosen (see the extension's summary).
    /// `subject` is the region the exposure is set for, if any.
    public func acceptedCells(_ rejection: Rejection = Rejection(), subject: NormalizedRect? = nil) -> [Cell] {
        let candidates = cells.indices.filter { index in
            let cell = cells[index]
            guard cell.sampleCount > 0, Double(cell.sampleCount) >= rejection.minimumKeptFraction * Double(cell.totalCount),
                  cell.rgb.min() > 0, ColorTemperature.luminance(cell.rgb) >= rejection.minimumLuminance else { return false }
            return WhiteBalanceStatistics.locusDistance(logChroma(cell.rgb)) <= rejection.maximumLocusDistance
        }
        guard !candidates.isEmpty else { return [] }
        let chromas = candidates.map { logChroma(cells[$0].rgb) }
        let weights = candidates.map { ColorTemperature.luminance(cells[$0].rgb) * Double(cells[$0].sampleCount) }
        let total = weights.reduce(0, +)
        func near(_ reference: SIMD2<Double>) -> [Int] {
            chromas.indices.filter { distance(chromas[$0], reference) <= rejection.sameLightDistance }
        }
        var reference: SIMD2<Double>
        let inSubject = subject.map { region in candidates.indices.filter { region.contains(center(candidates[$0])) } } ?? []
        if !inSubject.isEmpty {
            let subjectLight = SIMD2(median(inSubject.map { chromas[$0].x }), median(inSubject.map { chromas[$0].y }))
            return near(subjectLight).map { cells[candidates[$0]] }
        } else if near(.zero).reduce(0, { $0 + weights[$1] }) >= rejection.minimumShare * total {
            reference = .zero  // daylight, the light the locus is relative to
        } else {
            reference = SIMD2(weightedMedian(chromas.map(\.x), weights), weightedMedian(chromas.map(\.y), weights))
        }
        var members = near(reference)
        for _ in 0..<20 where !members.isEmpty {
            let weight = members.reduce(0) { $0 + weights[$1] }
            let next = members.reduce(SIMD2<Double>.zero) { $0 + chromas[$1] * weights[$1] } / weight
            let moved = distance(next, reference)
            reference = next
            members = near(reference)
            if moved < 1e-4 { break }
        }
        return members.map { cells[candidates[$0]] }
    }

    /// The light's linear RGB (unit luminance, before white balance) by grey world over the
    /// accepted cells — the mean of their colours, each by its samples — or nil when none is.
    public func grayWorld(_ rejection: Rejection = Rejection(), subject: NormalizedRect? = nil) -> SIMD3<Double>? {
        let sum = acceptedCells(rejection, subject: subject).reduce(SIMD3<Double>.zero) { $0 + $1.rgb * Double($1.sampleCount) }
        let luminance = ColorTemperature.luminance(sum)
        return luminance > 0 ? sum / luminance : nil
    }

    /// The light's colour temperature and tint by grey world (see `grayWorld`), or nil.
    public func estimate(_ rejection: Rejection = Rejection(), subject: NormalizedRect? = nil) -> ColorTemperature? {
        grayWorld(rejection, subject: subject).flatMap { ColorTemperature(relativeRGB: $0) }
    }

    // MARK: Chromaticity helpers

    /// (ln R/G, ln B/G) of a grey under the locus from 2000 to 12000 K, every 5 mireds.
    private static let locusChromas: [SIMD2<Double>] = {
        let lowest = 1e6 / ColorTemperature.range.upperBound, highest = 1e6 / ColorTemperature.range.lowerBound
        return Swift.stride(from: lowest, through: highest + 4.999, by: 5).map {
            logChroma(ColorTemperature(1e6 / min($0, highest)).relativeRGB)
        }
    }()

    /// The distance from `chroma` to the locus polyline.
    static func locusDistance(_ chroma: SIMD2<Double>) -> Double {
        var best = Double.infinity
        for (a, b) in zip(locusChromas, locusChromas.dropFirst()) {
            let segment = b - a
            let t = min(max(((chroma - a) * segment).sum() / max((segment * segment).sum(), 1e-18), 0), 1)
            let d = chroma - (a + segment * t)
            best = min(best, (d * d).sum())
        }
        return best.squareRoot()
    }
}

/// (ln R/G, ln B/G) of a positive colour.
private func logChroma(_ rgb: SIMD3<Double>) -> SIMD2<Double> {
    SIMD2(log(rgb.x / rgb.y), log(rgb.z / rgb.y))
}

private func distance(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double {
    let d = a - b
    return (d * d).sum().squareRoot()
}

/// The value below which half of the total weight lies.
private func weightedMedian(_ values: [Double], _ weights: [Double]) -> Double {
    let order = values.indices.sorted { values[$0] < values[$1] }
    let half = weights.reduce(0, +) / 2
    var running = 0.0
    for index in order {
        running += weights[index]
        if running >= half { return values[index] }
    }
    return values[order.last!]
}
