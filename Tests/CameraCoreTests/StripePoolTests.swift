import CameraCore
import Testing

@Suite("StripePool: a pass's stripes on every core")
struct StripePoolTests {
    @Test("Every stripe runs exactly once, whatever the pool's size", arguments: [1, 2, 3, 5])
    func everyStripeOnce(threads: Int) {
        let pool = StripePool(threads: threads)
        let runs = Locked([Int](repeating: 0, count: 37))
        pool.run(stripes: 37) { stripe in runs.withLock { $0[stripe] += 1 } }
        #expect(runs.withLock { $0 } == [Int](repeating: 1, count: 37))
    }

    @Test("Rows are cut into whole multiples, in order, covering every row once", arguments: [(1080, 2), (37, 1), (5, 2), (1, 4)])
    func rowStripes(rows: Int, multiple: Int) {
        let pool = StripePool(threads: 2)
        let stripes = Locked([(stripe: Int, rows: Range<Int>)]())
        pool.run(rows: rows, multiple: multiple) { stripe, range in stripes.withLock { $0.append((stripe, range)) } }
        let sorted = stripes.withLock { $0 }.sorted { $0.stripe < $1.stripe }
        #expect(sorted.map(\.stripe) == Array(0..<pool.stripeCount(rows: rows, multiple: multiple)))
        #expect(sorted.flatMap { Array($0.rows) } == Array(0..<rows))
        #expect(sorted.dropLast().allSatisfy { $0.rows.count % multiple == 0 && !$0.rows.isEmpty })
    }

    @Test("Two passes run at once from two threads each finish every stripe of their own")
    func twoPassesAtOnce() async {
        let pool = StripePool(threads: 2)
        let sums = await withTaskGroup(of: Int.self) { group in
            for pass in 1...2 {
                group.addTask {
                    await onOwnThread {
                        let total = Locked(0)
                        for _ in 0..<50 { pool.run(stripes: 8) { stripe in total.withLock { $0 += pass * (stripe + 1) } } }
                        return total.withLock { $0 }
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(sums.sorted() == [50 * 36, 100 * 36])
    }
}
