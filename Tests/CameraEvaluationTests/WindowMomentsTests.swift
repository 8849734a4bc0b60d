import CameraCore
@testable import CameraEvaluation
import Testing

/// The running-sum moments against a window-by-window sum over each patch.
@Suite struct WindowMomentsTests {
    /// Planes of whole code values, halved `halvings` times as the coarser scales are.
    private static func planes(count: Int, halvings: Int) -> [LuminancePlane] {
        var random = SplitMix64(seed: 11)
        return (0..<count).map { _ in
            var plane = LuminancePlane(width: 53, height: 41, values: (0..<(53 * 41)).map { _ in Double(Int.random(in: 0...255, using: &random)) })
            for _ in 0..<halvings { plane = plane.halved() }
            return plane
        }
    }

    /// E[xᵢxⱼ] (or E[xᵢ] when `j` is nil) over the window at (x, y), each value weighted by `weight(row, column)`.
    private static func reference(_ planes: [LuminancePlane], _ i: Int, _ j: Int?, x: Int, y: Int,
                                  weight: (Int, Int) -> Double) -> Double {
        let side = WindowMoments.side, width = planes[0].width
        var sum = 0.0
        for row in 0..<side {
            for column in 0..<side {
                let index = (y + row) * width + x + column
                sum += weight(row, column) * planes[i].values[index] * (j.map { planes[$0].values[index] } ?? 1)
            }
        }
        return sum
    }

    @Test("Box and Gaussian moments of every pair match direct window sums within 1e-9 relative, for a band of rows",
          arguments: [(2, 0, 0..<31), (4, 0, 5..<19), (3, 1, 2..<11), (3, 2, 0..<1)])
    func matchesDirectSums(count: Int, halvings: Int, rows: Range<Int>) {
        let planes = Self.planes(count: count, halvings: halvings)
        let moments = WindowMoments(planes: planes)
        let side = WindowMoments.side, taps = LuminancePlane.gaussian
        let moment = (0..<count).map { ($0, nil as Int?) } + moments.pairs.map { ($0.0, $0.1 as Int?) }
        #expect(moment.count == moments.momentCount)
        for (i, j) in moments.pairs {
            #expect(moments.pairMoment(i, j) == moment.firstIndex { $0 == (i, j) } && moments.pairMoment(j, i) == moments.pairMoment(i, j))
        }
        var visited = [Int]()
        var worst = 0.0
        moments.forEachRow(in: rows.clamped(to: 0..<moments.outHeight)) { y, row in
            visited.append(y)
            for (m, (i, j)) in moment.enumerated() {
                for x in 0..<moments.outWidth {
                    let box = Self.reference(planes, i, j, x: x, y: y) { _, _ in 1 / Double(side * side) }
                    let gaussian = Self.reference(planes, i, j, x: x, y: y) { taps[$0] * taps[$1] }
                    worst = max(worst, abs(row.box[m * moments.outWidth + x] - box) / max(abs(box), 1),
                                abs(row.gaussian[m * moments.outWidth + x] - gaussian) / max(abs(gaussian), 1))
                }
            }
        }
        #expect(visited == Array(rows.clamped(to: 0..<moments.outHeight)))
        #expect(worst < 1e-9, "largest relative difference \(worst)")
    }
}
