import CameraCore
import Testing

@Suite struct OrderStatisticsTests {
    @Test("The median is the middle value, the mean of the two middle ones for an even count, 0 for none")
    func median() {
        #expect(CameraCore.median([3, 1, 2]) == 2)
        #expect(CameraCore.median([4, 1, 3, 2]) == 2.5)
        #expect(CameraCore.median([-1]) == -1)
        #expect(CameraCore.median([]) == 0)
    }

    @Test("The quantile is the value with ⌊count × fraction⌋ values below it", arguments: [
        (0.0, 10), (0.1, 20), (0.2, 30), (0.25, 30), (0.5, 60), (0.75, 80), (0.99, 100), (1.0, 100),
    ])
    func quantile(fraction: Double, expected: Int) {
        #expect(CameraCore.quantile([100, 90, 80, 70, 60, 50, 40, 30, 20, 10], fraction) == expected)
    }

    @Test("The 0.5 quantile of an even count is the upper middle value; no values have no quantile")
    func quantileEdges() {
        #expect(CameraCore.quantile([4.0, 1, 3, 2], 0.5) == 3)
        #expect(CameraCore.quantile([Float](), 0.5) == nil)
    }

    @Test("The weighted quantile is the first value whose running weight reaches the fraction of the total")
    func weightedQuantile() {
        let cells: [(value: Double, weight: Double)] = [(5, 1), (1, 1), (3, 6), (9, 2)]
        // Sorted: 1 (1), 3 (7), 5 (8), 9 (10) of 10.
        #expect(CameraCore.weightedQuantile(cells, 0.1) == 1)
        #expect(CameraCore.weightedQuantile(cells, 0.5) == 3)
        #expect(CameraCore.weightedQuantile(cells, 0.75) == 5)
        #expect(CameraCore.weightedQuantile(cells, 0.98) == 9)
        #expect(CameraCore.weightedQuantile(cells, 1) == 9)
    }

    @Test("Without a positive weight there is no weighted quantile")
    func weightedQuantileWithoutWeight() {
        #expect(CameraCore.weightedQuantile([], 0.5) == nil)
        #expect(CameraCore.weightedQuantile([(value: 2, weight: 0)], 0.5) == nil)
    }
}
