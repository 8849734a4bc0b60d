import CameraCore
import Foundation
import Testing

@Suite("Condition: a value threads wait on")
struct ConditionTests {
    @Test("A thread waiting for a value is woken by the change that makes it so, and gets the value")
    func aWaiterSeesTheChange() async {
        let condition = Condition(0)
        let waiter = Task { await onOwnThread { condition.wait { value in value >= 3 ? .done(value) : .waitForChange(until: nil) } } }
        for _ in 0..<3 { condition.withLock { $0 += 1 } }
        #expect(await waiter.value == 3)
    }

    @Test("A wait with an instant looks again at that instant, changed or not")
    func aDeadlinePasses() {
        let condition = Condition(false)
        let deadline = ContinuousClock.now + .milliseconds(30)
        let timedOut = condition.wait { ready in
            ready ? .done(false) : ContinuousClock.now >= deadline ? .done(true) : .waitForChange(until: deadline)
        }
        #expect(timedOut)
        #expect(ContinuousClock.now >= deadline)
    }

    @Test("As a semaphore: each give lets one take through; a take with a deadline and no give fails")
    func semaphore() async {
        let semaphore = Condition(0)
        #expect(!semaphore.take(before: .now + .milliseconds(10)))
        let takers = (0..<3).map { _ in Task { await onOwnThread { semaphore.take() } } }
        for _ in 0..<3 { semaphore.give() }
        for taker in takers { #expect(await taker.value) }
        #expect(semaphore.withLock { $0 } == 0)
    }
}
