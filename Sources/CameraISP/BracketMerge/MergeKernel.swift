import CameraCore

/// The per-cell merge: for each 2×2 RGGB cell of the reference, the inverse-variance weighted mean
/// of the reference and every frame whose aligned cell passes the ghost test, sample by sample,
/// clipped samples left out. The four samples of a cell travel together as one SIMD4 (in the
/// mosaic's order: each is weighed alone, so the order does not matter).
///
/// Weights come from each frame's noise at the reference's value (its clip level where it is
/// clipped), so that a sample's own noise does not weight it. Where no unclipped sample is left,
/// the value is the highest clip level among the clipped samples kept: a lower bound.
struct MergeKernel {
    /// A non-reference frame as the loop reads it.
    private struct Partner {
        let source: PlaneBytes
        let scale: FrameScale
        let test: GhostTest
        /// The frame's shift in cells.
        let shift: (x: Int, y: Int)
        /// The frame's provenance bit in every lane.
        let bit: SIMD4<Int32>
    }

    /// One cell row of a partner: its two sample rows, or nil where the shift leaves the frame,
    /// and the reference cells it covers.
    private struct PartnerRow {
        let rows: (top: UnsafePointer<UInt16>, bottom: UnsafePointer<UInt16>)?
        let cells: Range<Int>
    }

    /// The reference frame as the loop reads it.
    private struct Reference {
        let source: PlaneBytes
        let scale: FrameScale
        let bit: SIMD4<Int32>
    }

    private let frames: [BracketFrame]
    private let scales: [FrameScale]
    private let shifts: [BayerShift]
    private let reference: Int
    private let threshold: Float
    /// Unclipped samples of non-reference frames that overlapped the reference, and those left out.
    private(set) var candidates = 0
    private(set) var rejected = 0

    init(frames: [BracketFrame], scales: [FrameScale], shifts: [BayerShift], reference: Int, threshold: Float) {
        self.frames = frames
        self.scales = scales
        self.shifts = shifts
        self.reference = reference
        self.threshold = threshold
    }

    /// The fraction of candidate samples the ghost test left out.
    var rejectedFraction: Double {
        candidates == 0 ? 0 : Double(rejected) / Double(candidates)
    }

    /// Merges into `output`, returning the provenance mask of each pixel.
    mutating func merge(into output: PixelBuffer, encoding: MergedEncoding) -> [UInt8] {
        let (width, height) = (output.width, output.height)
        let (cellsWide, cellsHigh) = (width / 2, height / 2)
        var provenance = [UInt8](repeating: 0, count: width * height)
        let target = PlaneBytes(output, plane: 0)
        // The merged values of a cell row's two rows, encoded eight at a time once the row is done.
        let rowLength = (width + 7) & ~7
        var merged = [Float](repeating: 0, count: 2 * rowLength)
        var tally = (counts: SIMD4<Int32>.zero, rejections: SIMD4<Int32>.zero)
        let reference = Reference(source: PlaneBytes(frames[self.reference].buffer, plane: 0), scale: scales[self.reference],
                                  bit: SIMD4(repeating: Int32(1 << self.reference)))
        let partners = frames.indices.filter { $0 != self.reference }.map { index in
            Partner(source: PlaneBytes(frames[index].buffer, plane: 0), scale: scales[index],
                    test: GhostTest(frame: scales[index], reference: scales[self.reference], threshold: threshold),
                    shift: (shifts[index].x / 2, shifts[index].y / 2), bit: SIMD4(repeating: Int32(1 << index)))
        }
        // `frames`, which the kernel holds, keeps the pointers in `reference` and `partners` valid.
        merged.withUnsafeMutableBufferPointer { merged in
            provenance.withUnsafeMutableBufferPointer { provenance in
                for cy in 0..<cellsHigh {
                    let rows = partners.map { partner in
                        let fy = cy + partner.shift.y
                        let samples = (0..<cellsHigh).contains(fy) ? (row(partner.source, 2 * fy), row(partner.source, 2 * fy + 1)) : nil
                        return PartnerRow(rows: samples, cells: max(0, -partner.shift.x)..<min(cellsWide, cellsWide - partner.shift.x))
                    }
                    let (referenceTop, referenceBottom) = (row(reference.source, 2 * cy), row(reference.source, 2 * cy + 1))
                    let (mergedTop, mergedBottom) = (merged.baseAddress!, merged.baseAddress! + rowLength)
                    let maskTop = provenance.baseAddress! + 2 * cy * width, maskBottom = maskTop + width
                    for cx in 0..<cellsWide {
                        let (values, mask) = mergeCell(cx, reference, referenceTop, referenceBottom, partners, rows, &tally)
                        (mergedTop[2 * cx], mergedTop[2 * cx + 1]) = (values[0], values[1])
                        (mergedBottom[2 * cx], mergedBottom[2 * cx + 1]) = (values[2], values[3])
                        (maskTop[2 * cx], maskTop[2 * cx + 1]) = (UInt8(truncatingIfNeeded: mask[0]), UInt8(truncatingIfNeeded: mask[1]))
                        (maskBottom[2 * cx], maskBottom[2 * cx + 1]) = (UInt8(truncatingIfNeeded: mask[2]), UInt8(truncatingIfNeeded: mask[3]))
                    }
                    encoding.encode(mergedTop, count: width, into: outputRow(target, 2 * cy))
                    encoding.encode(mergedBottom, count: width, into: outputRow(target, 2 * cy + 1))
                }
            }
        }
        candidates = Int(tally.counts.wrappedSum())
        rejected = Int(tally.rejections.wrappedSum())
        return provenance
    }

    /// The merged values of reference cell `cx` and the frames that contributed to each.
    @inline(__always)
    private func mergeCell(_ cx: Int, _ reference: Reference, _ referenceTop: UnsafePointer<UInt16>,
                           _ referenceBottom: UnsafePointer<UInt16>, _ partners: [Partner], _ rows: [PartnerRow],
                           _ tally: inout (counts: SIMD4<Int32>, rejections: SIMD4<Int32>))
        -> (values: SIMD4<Float>, mask: SIMD4<Int32>) {
        let scale = reference.scale
        let (referenceValue, referenceClipped) = scale.read(cell(referenceTop, referenceBottom, cx))
        let level = SIMD4<Float>.zero.replacing(with: referenceValue, where: referenceValue .> 0)
            .replacing(with: scale.clipLevel, where: referenceClipped)
        let referenceVariance = scale.varianceSlope * level + scale.varianceFloor
        let referenceWeight = SIMD4<Float>.zero.replacing(with: 1 / referenceVariance, where: .!referenceClipped)
        var weights = referenceWeight, sums = referenceWeight * referenceValue
        var mask = reference.bit.replacing(with: 0, where: referenceClipped)
        var bound = referenceValue, boundMask = reference.bit
        for (partner, row) in zip(partners, rows) {
            guard let samples = row.rows, row.cells.contains(cx) else { continue }
            let (value, clipped) = partner.scale.read(cell(samples.top, samples.bottom, cx + partner.shift.x))
            let variance = partner.scale.varianceSlope * level + partner.scale.varianceFloor
            let usable = SIMD4<Int32>(repeating: 1).replacing(with: 0, where: clipped)
            tally.counts &+= usable
            guard partner.test.agrees(value: value, clipped: clipped, variance: variance, referenceValue: referenceValue,
                                      referenceClipped: referenceClipped, referenceVariance: referenceVariance) else {
                tally.rejections &+= usable
                continue
            }
            let weight = SIMD4<Float>.zero.replacing(with: 1 / variance, where: .!clipped)
            weights += weight
            sums += weight * value
            mask |= partner.bit.replacing(with: 0, where: clipped)
            let higher = clipped .& (value .> bound)
            bound.replace(with: value, where: higher)
            boundMask.replace(with: partner.bit, where: higher)
        }
        let unweighted = weights .== 0
        return ((sums / weights).replacing(with: bound, where: unweighted), mask.replacing(with: boundMask, where: unweighted))
    }

    @inline(__always)
    private func row(_ plane: PlaneBytes, _ y: Int) -> UnsafePointer<UInt16> {
        UnsafeRawPointer(plane.row(y)).assumingMemoryBound(to: UInt16.self)
    }

    private func outputRow(_ plane: PlaneBytes, _ y: Int) -> UnsafeMutablePointer<UInt16> {
        UnsafeMutableRawPointer(mutating: plane.row(y)).assumingMemoryBound(to: UInt16.self)
    }

    /// The four samples of cell `cx`: R, G on the top row, G, B below.
    @inline(__always)
    private func cell(_ top: UnsafePointer<UInt16>, _ bottom: UnsafePointer<UInt16>, _ cx: Int) -> SIMD4<UInt16> {
        SIMD4(top[2 * cx], top[2 * cx + 1], bottom[2 * cx], bottom[2 * cx + 1])
    }
}
