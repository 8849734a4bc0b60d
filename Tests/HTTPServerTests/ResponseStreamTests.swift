import CameraCore
import CameraTestSupport
import Foundation
import Testing
@testable import HTTPServer

@Suite struct ResponseStreamTests {
    @Test func aSlowClientKeepsOnlyTheNewestPart() {
        let stream = ResponseStream()
        for index in 0..<10 { #expect(stream.send(Data("part\(index)".utf8))) }
        stream.finish()
        #expect(stream.droppedParts == 9)
        #expect(String(decoding: drain(stream), as: UTF8.self) == "part9")
    }

    @Test func aPartBeingWrittenIsFinishedBeforeTheNext() {
        let stream = ResponseStream(capacity: 2)
        stream.send(Data("AAAAAAAA".utf8))
        var buffer = [UInt8](repeating: 0, count: 3)
        #expect(buffer.withUnsafeMutableBytes { stream.read(into: $0) } == 3)
        stream.send(Data("B".utf8))
        stream.send(Data("C".utf8))
        stream.send(Data("D".utf8))
        stream.finish()
        #expect(String(decoding: drain(stream), as: UTF8.self) == "AAAAACD")
        #expect(stream.droppedParts == 1)
    }

    @Test func closingEndsTheReaderAndRunsTheCloseActionsOnce() async throws {
        let stream = ResponseStream()
        let closes = Counter()
        stream.onClose { closes.increment() }
        let reads = Counter()
        async let reader = onOwnThread { drain(stream, afterEachRead: { reads.increment() }) }
        stream.send(Data("A".utf8))
        // The reader has had its part and reads on, waiting for the next one that close() ends.
        #expect(try await eventually { reads.value == 1 })
        stream.close()
        stream.close()
        #expect(await String(decoding: reader, as: UTF8.self) == "A")
        #expect(closes.value == 1)
        #expect(!stream.send(Data("late".utf8)))
        stream.onClose { closes.increment() }
        #expect(closes.value == 2)
    }

    @Test func anIdleStreamSendsItsHeartbeat() {
        let stream = ResponseStream(heartbeat: Data(": ping\n\n".utf8), heartbeatInterval: .milliseconds(20))
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { stream.read(into: $0) }
        #expect(count.map { String(decoding: buffer[..<$0], as: UTF8.self) } == ": ping\n\n")
    }
}

/// Everything `stream` yields until it ends, read a few bytes at a time; `afterEachRead` runs after each read.
private func drain(_ stream: ResponseStream, afterEachRead: () -> Void = {}) -> Data {
    var result = Data()
    var buffer = [UInt8](repeating: 0, count: 4)
    while let count = buffer.withUnsafeMutableBytes({ stream.read(into: $0) }) {
        result.append(contentsOf: buffer[..<count])
        afterEachRead()
    }
    return result
}

final class Counter: Sendable {
    private let count = Locked(0)
    var value: Int { count.withLock { $0 } }
    func increment() { count.withLock { $0 += 1 } }
}
