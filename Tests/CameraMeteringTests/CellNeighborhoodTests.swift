import CameraMetering
import Testing

@Suite("Cell neighbourhood: edge-aware region growing")
struct CellNeighborhoodTests {
    /// A 4×3 grid: a dark left half that brightens gently, a sharp step up to the right half.
    let levels: [Double] = [
        0.0, 0.2, 2.0, 2.1,
        0.1, 0.3, 2.0, 2.2,
        0.2, 0.4, 2.1, 2.3,
    ]
    let grid = CellNeighborhood(columns: 4, rows: 3)

    @Test("Growing across steps under the tolerance takes the whole gentle side and stops at the sharp edge")
    func stopsAtSharpEdge() {
        let region = grid.grow(from: [0]) { from, to in abs(levels[to] - levels[from]) < 0.5 }
        #expect(Set(region) == [0, 1, 4, 5, 8, 9])
    }

    @Test("The step limit bounds how far the region reaches")
    func stepLimit() {
        let region = grid.grow(from: [0], limit: 1) { from, to in abs(levels[to] - levels[from]) < 0.5 }
        #expect(Set(region) == [0, 1, 4])
    }

    @Test("Grown from the bright side, the region stays on the bright side of the edge")
    func brightSide() {
        let region = grid.grow(from: [3]) { from, to in abs(levels[to] - levels[from]) < 0.5 }
        #expect(Set(region) == [2, 3, 6, 7, 10, 11])
    }

    @Test("The predicate sees the cell a step comes from: growing only towards brighter cells")
    func directed() {
        let region = grid.grow(from: [5]) { from, to in levels[to] > levels[from] && levels[to] - levels[from] < 0.5 }
        #expect(Set(region) == [5, 9])
    }
}
