import CameraCore
@testable import CameraMetering
import Foundation
import Testing

@Suite("Metering modes")
struct MeterTests {
    /// The ring weight from first principles: distance from the centre in half-diagonals, rings
    /// weighted 3, 2, 1, 0 with edges at 25%, 50% and 75%.
    private func ringWeight(x: Double, y: Double) -> Double {
        let distance = hypot(x - 0.5, y - 0.5) / hypot(0.5, 0.5)
        return distance < 0.25 ? 3 : distance < 0.5 ? 2 : distance < 0.75 ? 1 : 0
    }

    static let ringPoints: [(Double, Double, Double)] = [
        (0.5, 0.5, 3.0),
        (0.5 + 0.24 * 0.5, 0.5 + 0.24 * 0.5, 3),   // on the diagonal, 24% of the half-diagonal out
        (0.5 + 0.26 * 0.5, 0.5 - 0.26 * 0.5, 2),
        (0.5 - 0.49 * 0.5, 0.5 + 0.49 * 0.5, 2),
        (0.5 - 0.51 * 0.5, 0.5 - 0.51 * 0.5, 1),
        (0.5 + 0.74 * 0.5, 0.5 + 0.74 * 0.5, 1),
        (0.5 + 0.76 * 0.5, 0.5 + 0.76 * 0.5, 0),
        (0.5, 0.6, 3),        // 0.1 / 0.707 = 14%
        (0.7, 0.5, 2),        // 28%
        (0.5, 0.0, 1),        // edge midpoints: 71%
        (1.0, 0.5, 1),
        (0.0, 0.0, 0),        // corners: 100%
        (1.0, 1.0, 0),
    ]

    @Test("Centre-weighted ring weights are 3, 2, 1, 0 with edges at 25%, 50%, 75% of the half-diagonal", arguments: ringPoints)
    func centerWeight(x: Double, y: Double, weight: Double) {
        #expect(MeteringMode.centerWeight(x: x, y: y) == weight)
        #expect(ringWeight(x: x, y: y) == weight)
    }

    @Test("Centre-weighted metering is the ring-weighted mean of the cells")
    func centerWeightedMean() throws {
        // 128×96 at step 4: 32×24 cells of one sample each, the sample at each 4×4 block's corner.
        // Each block's level depends on its ring, so the weights show in the result.
        let levels: [Double: UInt8] = [3: 200, 2: 120, 1: 60, 0: 250]
        let frame = try buffer(.gray8, width: 128, height: 96) { x, y in
            levels[ringWeight(x: (Double(x / 4) + 0.5) / 32, y: (Double(y / 4) + 0.5) / 24)]!
        }
        let statistics = try stepFour.analyze(frame)
        #expect(statistics.cells.columns == 32 && statistics.cells.rows == 24)
        var sum = 0.0, weights = 0.0
        for row in 0..<24 {
            for column in 0..<32 {
                let w = ringWeight(x: (Double(column) + 0.5) / 32, y: (Double(row) + 0.5) / 24)
                sum += w * linear(Int(levels[w]!))
                weights += w
            }
        }
        let result = Meter.meter(statistics, mode: .centerWeighted)
        #expect(relativelyClose(result.metered, sum / weights, 1e-5), "metered \(result.metered), expected \(sum / weights)")
        // The clipped corners (weight 0) do not count at all; the average sees them.
        #expect(result.metered < Meter.meter(statistics, mode: .average).metered)
    }

    @Test("Average metering of a frame whose zones differ equals the pixel mean", arguments: [1, 4])
    func averageIsPixelMean(step: Int) throws {
        // 128×96: 16×12 zones of 8×8 pixels, each its own level.
        let frame = try buffer(.bgra8, width: 128, height: 96) { x, y in UInt8((x / 8 * 37 + y / 8 * 71) % 256) }
        var sum = 0.0
        for y in 0..<96 {
            for x in 0..<128 { sum += linear(Int(frame[plane: 0, x: x * 4, y: y])) }
        }
        let pixelMean = sum / Double(128 * 96)
        let statistics = try FrameAnalyzer(configuration: AnalysisConfiguration(sampleStep: step)).analyze(frame)
        let levels = Set(statistics.zones.means.compactMap { $0 })
        #expect(levels.count > 50, "the zones differ")
        let metered = Meter.meter(statistics, mode: .average).metered
        #expect(relativelyClose(metered, pixelMean, 1e-5), "metered \(metered), pixel mean \(pixelMean)")
        #expect(relativelyClose(metered, statistics.linearMean, 1e-6))
    }

    @Test("Matrix metering is the geometric mean of the zone means", arguments: [(UInt8(30), UInt8(220)), (90, 180), (128, 128)])
    func matrixIsGeometricMean(dark: UInt8, bright: UInt8) throws {
        // Left 8 zone columns at one level, right 8 at another; 256×192 has 16×16-pixel zones.
        let frame = try buffer(.gray8, width: 256, height: 192) { x, _ in x < 128 ? dark : bright }
        let statistics = try stepFour.analyze(frame)
        let a = linear(Int(dark)), b = linear(Int(bright))
        for row in 0..<12 {
            for column in 0..<16 {
                let mean = try #require(statistics.zones[column, row])
                #expect(relativelyClose(mean, column < 8 ? a : b, 1e-6))
            }
        }
        let matrix = Meter.meter(statistics, mode: .matrix).metered
        #expect(relativelyClose(matrix, (a * b).squareRoot(), 1e-5), "matrix \(matrix), expected \((a * b).squareRoot())")
        let average = Meter.meter(statistics, mode: .average).metered
        #expect(relativelyClose(average, (a + b) / 2, 1e-5))
        if dark != bright { #expect(matrix < average) }
    }

    /// 160×120 grey 50 with a 40×40 square of 230 centred at (40, 36): normalised (0.25, 0.3).
    private func brightSquare() throws -> FrameStatistics {
        try stepFour.analyze(try buffer(.gray8, width: 160, height: 120) { x, y in
            (20..<60).contains(x) && (16..<56).contains(y) ? 230 : 50
        })
    }

    @Test("A spot on the bright square meters its level; elsewhere the background", arguments: [
        (0.25, 0.3, UInt8(230)),
        (0.22, 0.25, 230),
        (0.75, 0.7, 50),
        (0.5, 0.5, 50),
        (0.9, 0.2, 50),
        (0.25, 0.8, 50),
    ])
    func spotFollowsPoint(x: Double, y: Double, level: UInt8) throws {
        let statistics = try brightSquare()
        let result = Meter.meter(statistics, mode: .spot(NormalizedPoint(x: x, y: y), radius: MeteringMode.defaultSpotRadius))
        #expect(relativelyClose(result.metered, linear(Int(level)), 1e-5), "spot at (\(x), \(y)): \(result.metered)")
    }

    @Test("Moving the spot across the square's edge moves the result")
    func spotMoves() throws {
        let statistics = try brightSquare()
        // Along y = 0.3 from inside the square (x < 0.375) to outside.
        let readings = stride(from: 0.25, through: 0.5, by: 0.025).map {
            Meter.meter(statistics, mode: .spot(NormalizedPoint(x: $0, y: 0.3), radius: 0.05)).metered
        }
        #expect(relativelyClose(readings.first!, linear(230), 1e-5))
        #expect(relativelyClose(readings.last!, linear(50), 1e-5))
        for (before, after) in zip(readings, readings.dropFirst()) {
            #expect(after <= before + 1e-9, "the reading falls as the spot leaves the square: \(readings)")
        }
        #expect(Set(readings.map { ($0 * 1e6).rounded() }).count >= 3, "intermediate readings mix the two levels: \(readings)")
    }

    @Test("A spot smaller than a cell meters the nearest cell")
    func tinySpot() throws {
        let statistics = try brightSquare()
        let inside = Meter.meter(statistics, mode: .spot(NormalizedPoint(x: 0.25, y: 0.3), radius: 0.0001)).metered
        #expect(relativelyClose(inside, linear(230), 1e-5))
        let outside = Meter.meter(statistics, mode: .spot(NormalizedPoint(x: 0.8, y: 0.8), radius: 0.0001)).metered
        #expect(relativelyClose(outside, linear(50), 1e-5))
    }

    /// 192×144 grey 60 with a saturated disk of radius 12 pixels at the centre: 48×36 cells of one
    /// sample each.
    static func saturatedDisk() throws -> FrameStatistics {
        try stepFour.analyze(try buffer(.gray8, width: 192, height: 144) { x, y in
            let dx = Double(x) - 96, dy = Double(y) - 72
            return dx * dx + dy * dy <= 144 ? 255 : 60
        })
    }

    @Test("Sun-aware metering leaves out the light source that centre-weighted metering counts")
    func sunAwareExcludesLightSource() throws {
        let statistics = try MeterTests.saturatedDisk()
        let highlights = statistics.highlights
        #expect(highlights.lightSourceCount == 1)
        #expect(highlights.sunFraction > 0)
        let grey = linear(60)
        let centre = Meter.meter(statistics, mode: .centerWeighted).metered
        let sunAware = Meter.meter(statistics, mode: .sunAware).metered
        #expect(centre > grey * 1.3, "the disk drags centre-weighted up: \(centre) vs grey \(grey)")
        #expect(relativelyClose(sunAware, grey, 0.02), "sun-aware \(sunAware) meters the grey \(grey)")
        // Exactly centre-weighted over the cells not marked as light source.
        let cells = statistics.cells
        var sum = 0.0, count = 0.0
        for cell in 0..<(cells.columns * cells.rows) where highlights.kinds[cell] != HighlightMask.Kind.lightSource.rawValue {
            let w = MeteringMode.centerWeight(x: cells.center(cell).x, y: cells.center(cell).y)
            sum += w * Double(cells.linearSums[cell])
            count += w * Double(cells.sampleCounts[cell])
        }
        #expect(relativelyClose(sunAware, sum / count, 1e-9))
        // Every clipped sample is on the light source.
        for cell in 0..<(cells.columns * cells.rows) where cells.clippedCounts[cell] > 0 {
            #expect(highlights.kinds[cell] == HighlightMask.Kind.lightSource.rawValue, "clipped cell \(cell) not marked")
        }
    }

    @Test("Without a light source sun-aware metering equals centre-weighted")
    func sunAwareWithoutSun() throws {
        let statistics = try stepFour.analyze(try buffer(.gray8, width: 128, height: 96) { x, y in UInt8((x * 3 + y * 5) % 200) })
        #expect(statistics.highlights.lightSourceCount == 0)
        #expect(Meter.meter(statistics, mode: .sunAware).metered == Meter.meter(statistics, mode: .centerWeighted).metered)
    }

    @Test("evError is log2(metered / (0.18 · 2^bias))", arguments: [-2.0, -1, 0, 0.5, 1, 2.5])
    func evError(bias: Double) throws {
        let statistics = try stepFour.analyze(try buffer(.gray8, width: 64, height: 48) { _, _ in 118 })
        for mode in [MeteringMode.average, .centerWeighted, .matrix, .sunAware, .spot(.center, radius: 0.05)] {
            let result = Meter.meter(statistics, mode: mode, bias: bias)
            #expect(result.mode == mode)
            #expect(relativelyClose(result.metered, linear(118), 1e-6), "\(mode.name): \(result.metered)")
            #expect(abs(result.target - 0.18 * pow(2, bias)) <= 1e-12)
            #expect(abs(result.evError - log2(result.metered / (0.18 * pow(2, bias)))) <= 1e-12)
            #expect(abs(result.evError - (log2(linear(118) / 0.18) - bias)) <= 1e-5)
        }
    }

    @Test("Mode names parse back", arguments: ["average", "centre", "matrix", "sun", "spot"])
    func parsing(name: String) throws {
        let mode = try #require(MeteringMode(parsing: name))
        #expect(mode.name == name)
    }

    @Test("spot@x,y parses its point; points outside the image do not")
    func spotParsing() {
        #expect(MeteringMode(parsing: "spot@0.25,0.75") == .spot(NormalizedPoint(x: 0.25, y: 0.75), radius: MeteringMode.defaultSpotRadius))
        #expect(MeteringMode(parsing: "center") == .centerWeighted)
        #expect(MeteringMode(parsing: "spot@1.5,0.5") == nil)
        #expect(MeteringMode(parsing: "spot@0.5") == nil)
        #expect(MeteringMode(parsing: "evaluative") == nil)
    }
}
