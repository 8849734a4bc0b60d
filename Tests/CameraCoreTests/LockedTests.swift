import CameraCore
import Testing

@Suite("Locked")
struct LockedTests {
    /// A count shared by tasks, with a flag that shows whether two critical sections overlapped.
    final class Counter: Sendable {
        let state = Locked<(value: Int, inside: Bool, overlaps: Int)>((0, false, 0))
    }

    @Test("Critical sections from many tasks never interleave")
    func serialises() async {
        let counter = Counter()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<2000 {
                        counter.state.withLock { state in
                            if state.inside { state.overlaps += 1 }
                            state.inside = true
                            state.value += 1
                            state.inside = false
                        }
                    }
                }
            }
        }
        let state = counter.state.withLock { $0 }
        #expect(state.value == 16_000)
        #expect(state.overlaps == 0)
    }

    @Test("An error thrown inside leaves the value as the body left it")
    func throwingBody() {
        struct Refused: Error {}
        let locked = Locked(1)
        #expect(throws: Refused.self) {
            try locked.withLock { value throws(Refused) in
                value = 2
                throw Refused()
            }
        }
        #expect(locked.withLock { $0 } == 2)
    }
}
