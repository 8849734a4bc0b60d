import CameraCore
@testable import CameraMetering
import CameraSimulated
import Testing

@Suite("Highlight mask")
struct HighlightMaskTests {
    /// Pixel-level agreement of the light-source cells with the ground truth on one simulated frame.
    struct Agreement {
        let intersection: Int, union: Int, predicted: Int, truth: Int
        let subjectPixels: Int, subjectOverlap: Int
        var iou: Double { union > 0 ? Double(intersection) / Double(union) : 0 }
        var subjectOverlapFraction: Double { Double(subjectOverlap) / Double(max(subjectPixels, 1)) }
    }

    /// Compares the light-source cells of `frame` with the camera's ground truth, pixel by pixel:
    /// a pixel is predicted sun when its cell is a light source.
    static func agreement(_ camera: SimulatedCamera, _ frame: Frame, analyzer: FrameAnalyzer = stepFour) throws -> Agreement {
        let statistics = try analyzer.analyze(frame.buffer)
        let truth = camera.groundTruth(for: frame)
        let size = PixelSize(width: frame.buffer.width, height: frame.buffer.height)
        #expect(truth.size == size)
        var intersection = 0, union = 0, predicted = 0, sun = 0, subject = 0, overlap = 0
        for y in 0..<size.height {
            for x in 0..<size.width {
                let cell = cellIndex(x: x, y: y, size: size, step: statistics.sampleStep, cells: statistics.cells)
                let isPredicted = statistics.highlights.kinds[cell] == HighlightMask.Kind.lightSource.rawValue
                let isSun = truth.sunMask[y * size.width + x] == 1
                let isSubject = truth.subjectMask[y * size.width + x] == 1
                if isPredicted && isSun { intersection += 1 }
                if isPredicted || isSun { union += 1 }
                if isPredicted { predicted += 1 }
                if isSun { sun += 1 }
                if isSubject { subject += 1 }
                if isSubject && isPredicted { overlap += 1 }
            }
        }
        return Agreement(intersection: intersection, union: union, predicted: predicted, truth: sun,
                         subjectPixels: subject, subjectOverlap: overlap)
    }

    @Test("On the backlit portrait with the sky unclipped, the light-source cells cover the sun (IoU ≥ 0.8) and miss the subject")
    func backlitPortraitSun() async throws {
        // 1/1714 s at gain 1 puts the sky near 0.35 linear: bright but not clipped.
        let camera = try simulatedCamera(.backlitPortrait, seconds: 1.0 / 1714)
        let frame = try await camera.nextFrame()
        #expect(frame.metadata.analogueGain == 1)
        #expect(abs(frame.metadata.exposureDuration.seconds - 1.0 / 1714) < 1e-6)
        let agreement = try HighlightMaskTests.agreement(camera, frame)
        #expect(agreement.truth > 100, "the ground truth has a sun: \(agreement.truth) pixels")
        #expect(agreement.iou >= 0.8,
                "IoU \(agreement.iou): \(agreement.intersection) shared of \(agreement.predicted) predicted, \(agreement.truth) true")
        #expect(agreement.subjectOverlapFraction <= 0.01, "\(agreement.subjectOverlap) of \(agreement.subjectPixels) subject pixels marked")
        let statistics = try stepFour.analyze(frame.buffer)
        #expect(statistics.highlights.lightSourceCount == 1)
        #expect(statistics.highlights.sunFraction > 0 && statistics.highlights.sunFraction < 0.03)
    }

    @Test("A saturated disk is one light source; its cells and only its cells are marked")
    func syntheticDisk() throws {
        let statistics = try MeterTests.saturatedDisk()
        let highlights = statistics.highlights
        #expect(highlights.lightSourceCount == 1)
        #expect(highlights.skyFraction == 0)
        #expect(highlights.nonSunClippedFraction == 0)
        let cells = statistics.cells
        var marked = 0
        for cell in 0..<(cells.columns * cells.rows) {
            let isSource = highlights.kinds[cell] == HighlightMask.Kind.lightSource.rawValue
            #expect(isSource == (cells.clippedCounts[cell] > 0), "cell \(cell)")
            if isSource { marked += 1 }
        }
        #expect(abs(highlights.sunFraction - Double(marked) / Double(cells.sampleCounts.reduce(0, +))) <= 1e-12)
        #expect(highlights.kind(column: 24, row: 18) == .lightSource)
        #expect(highlights.kind(column: 0, row: 0) == HighlightMask.Kind.none)
    }

    @Test("A clipped band across the top is sky, not a light source")
    func clippedSky() throws {
        // 128×96, the top quarter white over a grey 60 ground.
        let statistics = try stepFour.analyze(try buffer(.gray8, width: 128, height: 96) { _, y in y < 24 ? 255 : 60 })
        let highlights = statistics.highlights
        #expect(highlights.lightSourceCount == 0)
        #expect(abs(highlights.skyFraction - 0.25) <= 1e-12)
        #expect(abs(highlights.nonSunClippedFraction - 0.25) <= 1e-12)
        #expect(highlights.kind(column: 5, row: 0) == .sky)
        #expect(highlights.kind(column: 5, row: highlights.rows - 1) == HighlightMask.Kind.none)
    }

    @Test("Clipped blobs over more than a fifth of the frame are broken sky, not light sources: every clipped sample counts")
    func brokenSky() throws {
        // 128×96: white 8×8 squares every 12 pixels over the top two thirds (30% of the frame
        // clipped, each square a compact blob), grey 60 below and between them.
        let statistics = try stepFour.analyze(try buffer(.gray8, width: 128, height: 96) { x, y in
            y < 64 && x % 12 < 8 && y % 12 < 8 ? 255 : 60
        })
        let highlights = statistics.highlights
        #expect(statistics.clippedFraction > 0.3)
        #expect(highlights.lightSourceCount == 0)
        #expect(highlights.sunFraction == 0)
        #expect(abs(highlights.nonSunClippedFraction - statistics.clippedFraction) <= 1e-12)
        #expect(!highlights.kinds.contains(HighlightMask.Kind.lightSource.rawValue))
    }

    @Test("Sky through a lattice is not a crowd of lamps: clipped squares a cell apart are one clipped region, and it all counts")
    func lattice() throws {
        // 384×288 sampled every 4 pixels, one sample per cell: white 8×8 squares (2×2 cells) every
        // 12 pixels — a one-cell bar between them — over the top-left 192×96 (7.4% of the frame,
        // under the broken-sky fifth, each square a compact blob), grey 60 elsewhere.
        let statistics = try stepFour.analyze(try buffer(.gray8, width: 384, height: 288) { x, y in
            x < 192 && y < 96 && x % 12 < 8 && y % 12 < 8 ? 255 : 60
        })
        let highlights = statistics.highlights
        #expect(abs(statistics.clippedFraction - 128.0 * 64 / (384 * 288)) < 1e-9)
        #expect(highlights.lightSourceCount == 0)
        #expect(highlights.sunFraction == 0)
        #expect(abs(highlights.nonSunClippedFraction - statistics.clippedFraction) <= 1e-12)
        // The same squares three bars apart stand apart: 32 lamps.
        let apart = try stepFour.analyze(try buffer(.gray8, width: 384, height: 288) { x, y in
            x < 192 && y < 96 && x % 24 < 8 && y % 24 < 8 ? 255 : 60
        })
        #expect(apart.highlights.lightSourceCount == 32)
    }

    @Test("A frame without highlights marks nothing")
    func noHighlights() throws {
        let statistics = try stepFour.analyze(try buffer(.gray8, width: 64, height: 48) { x, y in UInt8(40 + (x + y) % 30) })
        #expect(statistics.highlights.kinds.allSatisfy { $0 == HighlightMask.Kind.none.rawValue })
        #expect(statistics.highlights.sunFraction == 0)
        #expect(statistics.highlights.skyFraction == 0)
    }
}
