import CameraCapture
import CameraCore
import CameraTestSupport
import CameraV4L2
import Foundation
import Testing

@Suite("V4L2Camera reader thread")
struct V4L2FrameReaderTests {
    /// The threads of this process named `name`, from /proc/self/task/*/comm.
    private func threads(named name: String) throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count { task in
            (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) == name + "\n"
        }
    }

    /// The names of this process's threads, for a failure's message.
    static func names() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []).compactMap { task in
            try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)
        }
    }

    @Test("one reader thread per stream, named for its node, lives while it streams; it ends when the stream stops, and a restart has its own")
    func oneThreadPerStream() async throws {
        let driver = ScriptedV4L2Driver(path: "/dev/video41")
        let camera = try V4L2Camera(path: "/dev/video41", driver: driver)
        try camera.startStreaming()
        for expected in UInt64(0)..<5 { #expect(try await camera.nextFrame().sequenceNumber == expected) }
        #expect(try await eventually { try threads(named: "v4l2:video41") == 1 }, "threads: \(Self.names())")
        camera.stopStreaming()
        #expect(try await eventually { try threads(named: "v4l2:video41") == 0 }, "threads: \(Self.names())")
        try camera.startStreaming()
        _ = try await camera.nextFrame()
        #expect(try await eventually { try threads(named: "v4l2:video41") == 1 }, "threads: \(Self.names())")
        camera.stopStreaming()
        #expect(try await eventually { try threads(named: "v4l2:video41") == 0 }, "threads: \(Self.names())")
    }

    /// A streaming camera whose frames are held back, and a task waiting for one, its reader blocked in poll.
    private func waitingInPoll() async throws -> (ScriptedV4L2Driver, V4L2Camera, Task<Frame, any Error>) {
        let (driver, camera) = try streamingCamera()
        driver.holdFrames()
        let waiting = Task { try await camera.nextFrame() }
        #expect(try await eventually { driver.blockedPolls == 1 })
        return (driver, camera, waiting)
    }

    @Test("a cancelled nextFrame ends at once while the reader still waits in poll; the frame that comes goes to the next call")
    func cancellation() async throws {
        let (driver, camera, waiting) = try await waitingInPoll()
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(driver.blockedPolls == 1)
        driver.releaseFrames()
        let frame = try await camera.nextFrame()
        #expect(frame.sequenceNumber == 0)
        #expect(driver.log == ["poll", "VIDIOC_DQBUF", "VIDIOC_QBUF 0"])
    }

    @Test("a task cancelled before it asks gets CancellationError and reads nothing")
    func cancelledBeforeAsking() async throws {
        let (driver, camera) = try streamingCamera()
        let waiting = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await camera.nextFrame()
        }
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(try await camera.nextFrame().sequenceNumber == 0)
        #expect(driver.log == ["poll", "VIDIOC_DQBUF", "VIDIOC_QBUF 0"])
    }

    @Test("stopping while a nextFrame waits fails it with 'not started' at once; the stream closes by its one path")
    func stopWhileWaiting() async throws {
        let (driver, camera, waiting) = try await waitingInPoll()
        camera.stopStreaming()
        await #expect(throws: CaptureError.deviceFailure(device: "/dev/video0",
                                                         detail: "the stream is not started — call startStreaming() before nextFrame()")) {
            try await waiting.value
        }
        driver.releaseFrames()
        #expect(try await eventually { driver.log.last == "close" })
        #expect(driver.log == ["VIDIOC_STREAMOFF", "munmap 0", "munmap 1", "munmap 2", "munmap 3", "VIDIOC_REQBUFS 0", "poll", "close"])
    }

    @Test("a stream started again at once, while the old one's reader still waits in poll, gets its buffers (REQBUFS 0 gave them back)")
    func restartWhileTheOldReaderPolls() async throws {
        let (driver, camera, waiting) = try await waitingInPoll()
        camera.stopStreaming()
        _ = await waiting.result
        try camera.startStreaming()
        driver.releaseFrames()
        #expect(try await camera.nextFrame().sequenceNumber == 0)
        #expect(try await eventually { driver.log.contains("close") })
    }
}
