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

        /// Opens `/stream` and reads whole parts until one is `last`, counting each first part in `firstParts`.
        static func receiveParts(port: UInt16, host: String, boundary: String, until last: Data, firstParts: Counter) throws -> Reception {
            let connection = try RawHTTPConnection(port: port)
            try connection.send("GET /stream HTTP/1.1\r\nHost: \(host)\r\n\r\n")
            let (status, headers) = try connection.readHead()
            guard status == 200 else { throw RawHTTPConnection.Failure("/stream answered \(status)") }
            var reception = Reception(contentType: headers["content-type"] ?? "")
            var part = Data()
            while part != last {
                let line = try connection.readLine()
                guard line == "--\(boundary)" else { throw RawHTTPConnection.Failure("expected the boundary, got \"\(line)\"") }
                var length = 0
                while case let header = try connection.readLine(), !header.isEmpty {
                    if header.lowercased().hasPrefix("content-length:") { length = Int(header.dropFirst(15).trimmingCharacters(in: .whitespaces)) ?? 0 }
                }
                part = try connection.read(count: length)
                guard try connection.readLine().isEmpty else { throw RawHTTPConnection.Failure("part not followed by CRLF") }
                if reception.parts == 0 {
                    reception.firstPart = part
                    firstParts.increment()
                }
                reception.parts += 1
            }
            return reception
        }

        /// Once each of 20 viewers (beside one that never reads) has its first frame, controls are
        /// answered and applied between frames published to them all; then every viewer receives the
        /// frame published after the last control. How fast each viewer and the API are is a
        /// benchmark (`camerasun bench server`).
        @Test func twentyClientsKeepStreamingWhileTheAPIAnswers() async throws {
            let test = try TestServer()
            let (port, host, boundary, preview) = (test.port, test.host, test.preview.boundary, test.preview)
            let jpeg = Data(repeating: 0x4A, count: 80_000), last = Data(repeating: 0x4C, count: 80_000)

            let stalled = try test.connect()
            try stalled.send("GET /stream HTTP/1.1\r\nHost: \(host)\r\n\r\n")
            let firstParts = Counter()
            let clients = (0..<20).map { _ in
                Task { try await onOwnThread { try Self.receiveParts(port: port, host: host, boundary: boundary, until: last, firstParts: firstParts) } }
            }
            #expect(try await eventually { preview.clientCount == 21 })
            preview.publish(jpeg: jpeg)
            #expect(try await eventually { firstParts.value == 20 }, "\(firstParts.value) of 20 viewers got the first frame")

            let answers = try await onOwnThread {
                let api = try RawHTTPConnection(port: port)
                return try (0..<15).map { index in
                    for _ in 0..<4 { preview.publish(jpeg: jpeg) }
                    let bias = Double(index) / 10
                    return try api.request("POST", "/api/exposure", headers: ["Content-Type": "application/json"],
                                           body: Data(#"{"bias":\#(bias)}"#.utf8)).text
                }
            }
            preview.publish(jpeg: last)

            for client in clients {
                let reception = try await client.value
                #expect(reception.contentType == "multipart/x-mixed-replace; boundary=\(boundary)")
                #expect(reception.firstPart == jpeg)
                #expect(reception.parts >= 2)
            }
            #expect(answers == (0..<15).map { #"{"aeState":"converged","evBias":\#(Double($0) / 10)}"# })
            #expect(test.app.commands == (0..<15).map { "exposure bias(\(Double($0) / 10))" })
            stalled.close()
            test.server.stop()
        }

        /// Each connection has its own thread, so slow handlers run side by side and delay no one
        /// else: two photos are both in their handler at once, and `/state` is answered while they are.
        @Test func slowHandlersDoNotDelayOtherRequests() async throws {
            let test = try TestServer(holdingPhotos: true)
            defer { test.app.photoGate.open() }
            let (port, host) = (test.port, test.host)
            async let first = onOwnThread { try RawHTTPConnection(port: port).request("POST", "/api/photo", headers: ["Host": host]) }
            async let second = onOwnThread { try RawHTTPConnection(port: port).request("POST", "/api/photo", headers: ["Host": host]) }
            #expect(try await eventually { test.app.commands == ["photo", "photo"] }, "photo handlers running: \(test.app.commands)")
            let state = try await test.connect().request("GET", "/state", headers: ["Host": host])
            #expect(state.status == 200)
            test.app.photoGate.open()
            let photos = try await [first.status, second.status]
            #expect(photos == [200, 200])
            #expect(test.app.commands == ["photo", "photo"])
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

        /// `stop()` closes what is open rather than waiting for it: the connections here would not
        /// time out for an hour, so a `stop()` that waited would outlast the time limit.
        @Test(.timeLimit(.minutes(1)))
        func stopEndsOpenStreamsWithoutWaitingForThem() async throws {
            let test = try TestServer(idleTimeout: .seconds(3600), headerTimeout: .seconds(3600))
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

            test.server.stop()
            for connection in streams + [idle] {
                _ = try? await connection.readToEnd()
                #expect(try await connection.isClosedByServer())
            }
            #expect(test.preview.clientCount == 0)
            #expect(test.server.connectionCount == 0)
            #expect(throws: RawHTTPConnection.Failure.self) { try test.connect() }
        }

        /// Connections in use (here requests waiting for their answer) are not closed to make room:
        /// the one over the limit is. Once answered they wait idle, and a new connection takes the
        /// place of one.
        @Test func connectionsOverTheLimitAreRefused() async throws {
            let test = try TestServer(connectionLimit: 2, holdingPhotos: true)
            let busy = try (0..<2).map { _ in try test.connect() }
            for connection in busy {
                try connection.send("POST /api/photo HTTP/1.1\r\nHost: \(test.host)\r\nContent-Length: 0\r\n\r\n")
            }
            #expect(try await eventually { test.app.commands == ["photo", "photo"] })
            let extra = try test.connect()
            try? extra.send("GET /state HTTP/1.1\r\nHost: \(test.host)\r\n\r\n")
            #expect(try await extra.isClosedByServer())
            test.app.photoGate.open()
            for connection in busy {
                #expect(try await connection.readResponse().status == 200)
            }
            // From another address: the per-address limit is the connection limit here.
            #expect(try await RawHTTPConnection(port: test.port, from: "127.0.0.2").request("GET", "/state").status == 200)
            #expect(try await busy[0].isClosedByServer())
            #expect(!busy[1].closedWhileIdle())
        }
    }
}
