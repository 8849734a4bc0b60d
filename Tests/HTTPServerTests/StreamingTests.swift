import CameraCore
import CameraTestSupport
import Foundation
import Testing
@testable import HTTPServer

extension ServerTests {
    @Suite struct Streaming {
        /// What one MJPEG client received.
        struct Reception: Sendable {
            var parts = 0
            var firstPart = Data()
            var contentType = ""
        }

        /// Opens `/stream` and reads whole parts until the server ends the stream.
        static func receiveParts(port: UInt16, host: String, boundary: String) throws -> Reception {
            let connection = try RawHTTPConnection(port: port)
            try connection.send("GET /stream HTTP/1.1\r\nHost: \(host)\r\n\r\n")
            let (status, headers) = try connection.readHead()
            guard status == 200 else { throw RawHTTPConnection.Failure("/stream answered \(status)") }
            var reception = Reception(contentType: headers["content-type"] ?? "")
            while let line = try? connection.readLine() {
                guard line == "--\(boundary)" else { throw RawHTTPConnection.Failure("expected the boundary, got \"\(line)\"") }
                var length = 0
                while case let header = try connection.readLine(), !header.isEmpty {
                    if header.lowercased().hasPrefix("content-length:") { length = Int(header.dropFirst(15).trimmingCharacters(in: .whitespaces)) ?? 0 }
                }
                let part = try connection.read(count: length)
                guard try connection.readLine().isEmpty else { throw RawHTTPConnection.Failure("part not followed by CRLF") }
                if reception.parts == 0 { reception.firstPart = part }
                reception.parts += 1
            }
            return reception
        }

        /// Publishes `count` frames at `rate` per second, paced by absolute deadlines; returns the
        /// seconds it took.
        static func publish(_ jpeg: Data, count: Int, rate: Double, to feed: MJPEGFeed) -> Double {
            let start = Date()
            for index in 0..<count {
                let deadline = start.addingTimeInterval(Double(index) / rate)
                if deadline > Date() { Thread.sleep(until: deadline) }
                feed.publish(jpeg: jpeg)
            }
            return Date().timeIntervalSince(start) + 1 / rate
        }

        /// User and system CPU time of this process so far.
        static func processCPUSeconds() -> Double {
            var usage = rusage()
            getrusage(RUSAGE_SELF.rawValue, &usage)
            return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        }

        /// POSTs a control every `interval` on one keep-alive connection; returns each round trip in seconds.
        static func probeAPI(port: UInt16, host: String, count: Int, interval: Double) throws -> [Double] {
            let connection = try RawHTTPConnection(port: port)
            var latencies: [Double] = []
            for _ in 0..<count {
                let start = Date()
                let response = try connection.request("POST", "/api/exposure", headers: ["Content-Type": "application/json"], body: Data(#"{"bias":0.3}"#.utf8))
                latencies.append(Date().timeIntervalSince(start))
                guard response.status == 200 else { throw RawHTTPConnection.Failure("/api/exposure answered \(response.status)") }
                Thread.sleep(forTimeInterval: interval)
            }
            return latencies
        }

        @Test func twentyClientsGetTheFeedRateWhileTheAPIAnswers() async throws {
            let test = try TestServer()
            let (port, host, boundary, preview) = (test.port, test.host, test.preview.boundary, test.preview)
            let jpeg = Data(repeating: 0x4A, count: 80_000)

            let stalled = try test.connect()
            try stalled.send("GET /stream HTTP/1.1\r\nHost: \(host)\r\n\r\n")
            let clients = (0..<20).map { _ in
                Task { try await onOwnThread { try Self.receiveParts(port: port, host: host, boundary: boundary) } }
            }
            #expect(try await eventually { preview.clientCount == 21 })

            let cpuBefore = Self.processCPUSeconds()
            async let publishing = onOwnThread { Self.publish(jpeg, count: 60, rate: 30, to: preview) }
            async let probing = onOwnThread { try Self.probeAPI(port: port, host: host, count: 15, interval: 0.12) }
            let (seconds, latencies) = try await (publishing, probing)
            let cpu = (Self.processCPUSeconds() - cpuBefore) / seconds
            try await Task.sleep(for: .milliseconds(300))
            test.server.stop()

            var rates: [Double] = []
            for client in clients {
                let reception = try await client.value
                #expect(reception.contentType == "multipart/x-mixed-replace; boundary=\(boundary)")
                #expect(reception.firstPart == jpeg)
                rates.append(Double(reception.parts) / seconds)
            }
            let sorted = latencies.sorted()
            let median = sorted[sorted.count / 2]
            print("20 MJPEG clients, 80 kB parts published at \(String(format: "%.1f", 60 / seconds))/s: per-client rates \(String(format: "%.1f", rates.min()!))…\(String(format: "%.1f", rates.max()!))/s; /api round trip median \(String(format: "%.1f", median * 1000)) ms, max \(String(format: "%.1f", sorted.last! * 1000)) ms; test process (server and clients) \(String(format: "%.0f", cpu * 100))% of one core")
            #expect(rates.allSatisfy { $0 >= 25 }, "per-client rates \(rates)")
            #expect(median < 0.1)
            #expect(sorted.filter { $0 < 0.1 }.count >= sorted.count - 1, "round trips \(sorted)")
            stalled.close()
        }

        /// Each connection has its own thread, so slow handlers run side by side and delay no one else.
        @Test func slowHandlersDoNotDelayOtherRequests() async throws {
            let test = try TestServer(photoDuration: .milliseconds(300))
            let (port, host) = (test.port, test.host)
            let start = ContinuousClock.now
            async let first = onOwnThread { try RawHTTPConnection(port: port).request("POST", "/api/photo", headers: ["Host": host]) }
            async let second = onOwnThread { try RawHTTPConnection(port: port).request("POST", "/api/photo", headers: ["Host": host]) }
            try await Task.sleep(for: .milliseconds(50))
            let stateStart = ContinuousClock.now
            let state = try await test.connect().request("GET", "/state", headers: ["Host": host])
            let stateTime = ContinuousClock.now - stateStart
            let photos = try await [first.status, second.status]
            let photoTime = ContinuousClock.now - start
            #expect(state.status == 200)
            #expect(photos == [200, 200])
            #expect(stateTime < .milliseconds(100), "/state took \(stateTime) beside two 300 ms photos")
            #expect(photoTime < .milliseconds(550), "two 300 ms photos took \(photoTime) together")
        }

        @Test func clientsThatGoAwayFreeTheirStreams() async throws {
            let test = try TestServer()
            var connections: [RawHTTPConnection] = []
            for path in ["/stream", "/stream", "/stream", "/events", "/events"] {
                let connection = try test.connect()
                try connection.send("GET \(path) HTTP/1.1\r\nHost: \(test.host)\r\n\r\n")
                #expect(try await connection.readHead().status == 200)
                connections.append(connection)
            }
            #expect(try await eventually { test.preview.clientCount == 3 && test.events.clientCount == 2 })
            #expect(test.server.connectionCount == 5)
            for connection in connections { connection.close() }
            let jpeg = TestApp.snapshot
            let freed = try await eventually {
                test.preview.publish(jpeg: jpeg)
                test.events.publish(Data("{}".utf8))
                return test.preview.clientCount == 0 && test.events.clientCount == 0 && test.server.connectionCount == 0
            }
            #expect(freed, "preview \(test.preview.clientCount), events \(test.events.clientCount), connections \(test.server.connectionCount)")
        }

        @Test func serverSentEventsArrive() async throws {
            let test = try TestServer()
            let connection = try test.connect()
            try connection.send("GET /events HTTP/1.1\r\nHost: \(test.host)\r\n\r\n")
            let (status, headers) = try await connection.readHead()
            #expect(status == 200)
            #expect(headers["content-type"] == "text/event-stream")
            #expect(headers["cache-control"] == "no-store")
            #expect(try await eventually { test.events.clientCount == 1 })
            for bias in [0.5, 1.0] {
                test.events.publish(Data(#"{"evBias":\#(bias)}"#.utf8), name: "state")
                #expect(try await connection.readLine() == "event: state")
                #expect(try await connection.readLine() == #"data: {"evBias":\#(bias)}"#)
                #expect(try await connection.readLine() == "")
            }
            test.events.publish(Data("{\n\"a\":1}".utf8))
            #expect(try await [connection.readLine(), connection.readLine(), connection.readLine()] == ["data: {", #"data: "a":1}"#, ""])
        }

        @Test func stopEndsOpenStreamsPromptly() async throws {
            let test = try TestServer()
            var streams: [RawHTTPConnection] = []
            for path in ["/stream", "/stream", "/stream", "/events"] {
                let connection = try test.connect()
                try connection.send("GET \(path) HTTP/1.1\r\nHost: \(test.host)\r\n\r\n")
                #expect(try await connection.readHead().status == 200)
                streams.append(connection)
            }
            let idle = try test.connect()
            #expect(try await idle.request("GET", "/state", headers: ["Host": test.host]).status == 200)
            #expect(try await eventually { test.preview.clientCount == 3 && test.events.clientCount == 1 })

            let start = ContinuousClock.now
            test.server.stop()
            let elapsed = ContinuousClock.now - start
            print("stop() with 4 open streams and an idle keep-alive connection took \(elapsed)")
            #expect(elapsed < .seconds(2))
            for connection in streams + [idle] {
                _ = try? await connection.readToEnd()
                #expect(try await connection.isClosedByServer())
            }
            #expect(test.preview.clientCount == 0)
            #expect(test.server.connectionCount == 0)
            #expect(throws: RawHTTPConnection.Failure.self) { try test.connect() }
        }

        @Test func connectionsOverTheLimitAreRefused() async throws {
            let test = try TestServer(connectionLimit: 2)
            let open = try (0..<2).map { _ in try test.connect() }
            for connection in open {
                #expect(try await connection.request("GET", "/state", headers: ["Host": test.host]).status == 200)
            }
            let extra = try test.connect()
            try? extra.send("GET /state HTTP/1.1\r\nHost: \(test.host)\r\n\r\n")
            #expect(try await extra.isClosedByServer())
            open[0].close()
            #expect(try await eventually { test.server.connectionCount == 1 })
            #expect(try await test.connect().request("GET", "/state", headers: ["Host": test.host]).status == 200)
        }
    }
}
