@testable import CameraCore
import Foundation
import Testing

@Suite("SerialWorker: ordered work on a thread of its own")
struct SerialWorkerTests {
    @Test("Work runs one piece at a time, in the order it was handed over, and run waits for all before it")
    func order() {
        let worker = SerialWorker(name: "test-order")
        let seen = Condition<[Int]>([]), running = Condition(0), overlapped = Condition(false)
        for index in 0..<500 {
            worker.submit {
                running.withLock { count in
                    count += 1
                    if count > 1 { overlapped.withLock { $0 = true } }
                }
                seen.withLock { $0.append(index) }
                running.withLock { $0 -= 1 }
            }
        }
        let countAtRun = worker.run { seen.withLock { $0.count } }
        #expect(countAtRun == 500)
        #expect(seen.withLock { $0 } == Array(0..<500))
        #expect(!overlapped.withLock { $0 })
    }

    @Test("Work runs off the caller's thread, all of it on the worker's one thread")
    func ownThread() {
        let worker = SerialWorker(name: "test-thread")
        let caller = pthread_self()
        let threads = Condition<[pthread_t]>([])
        for _ in 0..<20 { worker.submit { threads.withLock { $0.append(pthread_self()) } } }
        let ran = worker.run { pthread_self() }
        let all = threads.withLock { $0 } + [ran]
        #expect(pthread_equal(ran, caller) == 0)
        #expect(all.allSatisfy { pthread_equal($0, ran) != 0 })
    }

    @Test("run returns the work's value, or throws its error with its type")
    func runPassesResults() {
        struct Refused: Error, Equatable {}
        let worker = SerialWorker(name: "test-run")
        #expect(worker.run { 6 * 7 } == 42)
        #expect(throws: Refused()) { try worker.run { () throws(Refused) -> Int in throw Refused() } }
    }

    @Test("perform awaits the work's value or its typed error, in order with the work handed over before")
    func performPassesResults() async {
        struct Refused: Error, Equatable {}
        let worker = SerialWorker(name: "test-perform")
        let seen = Condition<[Int]>([])
        for index in 0..<50 { worker.submit { seen.withLock { $0.append(index) } } }
        let countAtPerform = await worker.perform { seen.withLock { $0.count } }
        #expect(countAtPerform == 50)
        await #expect(throws: Refused()) { try await worker.perform { () throws(Refused) -> Int in throw Refused() } }
    }

    @Test("Released, the worker runs what was handed over before, then its thread ends")
    func shutdown() {
        var worker: SerialWorker? = SerialWorker(name: "test-end")
        let gate = Condition(false), done = Condition(0)
        worker?.submit { gate.wait { open in open ? .done(()) : .waitForChange(until: nil) } }
        for _ in 0..<10 { worker?.submit { done.withLock { $0 += 1 } } }
        let state = worker!.state
        worker = nil
        #expect(state.withLock { $0.phase } == .running)
        gate.withLock { $0 = true }
        state.wait { $0.phase == .ended ? .done(()) : .waitForChange(until: nil) }
        #expect(done.withLock { $0 } == 10)
        #expect(state.withLock { $0.queue.isEmpty && $0.isReleased })
    }

    @Test("A worker handed nothing starts no thread")
    func lazyThread() {
        let worker = SerialWorker(name: "test-idle")
        #expect(worker.state.withLock { $0.phase } == .notStarted)
    }
}
