import CameraCapture
import CameraCore
import CameraMovie
import CameraRecording
import CameraTestSupport
import Foundation
import Testing

/// A live stream against a server that misbehaves — nginx-rtmp hung with SIGSTOP, its `refused`
/// application dropping the publisher without a word, a key another publisher holds — and what the
/// stream's status and events say of it. States are compared by their JSON words, as `/state` shows them.
@Suite(.serialized) struct LiveStreamServerFaultTests {
    @Test("nginx paused mid-stream: the stream reads stalled at 0 kb/s once nothing is taken for the timeout; resumed, it is live again, its error cleared")
    func stall() async throws {
        try await withNginxRTMP { server in
            let stream = LiveStreamOutput()
            let session = try await LiveStreamTests.session(stream)
            try await session.start()
            try await LiveStreamTests.push(stream, to: server.url(key: "stall"), frames: 60)
            server.pause()
            // The kernel's buffers take the stream for a while; then nothing is taken, and after the 5 s timeout the state says so.
            let stalled = try await eventually(timeout: .seconds(90)) { stream.status.state.rawValue == "stalled" }
            let during = stream.status
            server.resume()
            #expect(stalled, "\(during)")
            #expect(during.bitRate == 0, "\(during)")

            let back = try await eventually(timeout: .seconds(60)) { stream.status.state == .live && stream.status.reconnects >= 1 }
            let after = stream.status
            #expect(back, "\(after)")
            #expect(after.lastError == nil, "\(after)")
            #expect(try await eventually { stream.status.sentFrames >= after.sentFrames + 30 && stream.status.bitRate > 0 }, "\(stream.status)")
            let final = await stream.stop()
            await session.stop()
            #expect(final.state == .stopped, "\(final)")
        }
    }

    @Test("a key nginx refuses in its answer (NetStream.Publish.BadName, \"Already publishing\"): the stream fails at once with the server's words and what to check, the key masked")
    func refusedInTheAnswer() async throws {
        try await withNginxRTMP { server in
            try await server.withKeyInUse("secretkey") {
                let stream = LiveStreamOutput()
                let events = stream.events
                let session = try await LiveStreamTests.session(stream)
                try stream.start(url: server.url(key: "secretkey"))
                try await session.start()
                let event = await LiveStreamTests.firstEvent(of: events)
                await session.stop()
                guard case .failed(let error) = event else {
                    Issue.record("expected a failure, got \(String(describing: event))")
                    return
                }
                #expect(error.message.contains("refused the stream to rtmp://127.0.0.1:\(server.port)/live/****: \"Already publishing\""), "\(error)")
                #expect(error.message.contains("check the app (live) and the stream key") && !error.message.contains("secretkey"), "\(error)")
                #expect(stream.status.state == .failed)
            }
        }
    }

    @Test("nginx dropping the publisher without an answer (its refused application): the stream connects again, it never gives up")
    func dropWithoutAnswer() async throws {
        try await withNginxRTMP { server in
            let stream = LiveStreamOutput()
            let events = stream.events
            let session = try await LiveStreamTests.session(stream)
            try stream.start(url: server.refusedURL(key: "cam1"))
            try await session.start()
            var attempts: [Int] = []
            var failure: MovieError?
            for await event in events {
                if case .connected(let attempt) = event { attempts.append(attempt) }
                if case .failed(let error) = event { failure = error }
                if failure != nil || attempts.count == 2 { break }
            }
            let final = await stream.stop()
            await session.stop()
            #expect(failure == nil && attempts == [0, 1], "\(attempts), \(String(describing: failure))")
            #expect(final.state == .stopped && final.reconnects >= 1, "\(final)")
            #expect(server.errorLog().contains("access forbidden by rule"))
        }
    }
}
