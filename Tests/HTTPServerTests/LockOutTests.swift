import CameraCore
import CameraTestSupport
import Foundation
import Testing
@testable import HTTPServer

extension ServerTests {
    /// One client cannot lock everyone else out by holding connections open. On loopback every
    /// address of 127.0.0.0/8 is this machine, so the hostile client connects from 127.0.0.2 and
    /// the good one from 127.0.0.1.
    @Suite struct LockOut {
        /// Opens a connection from 127.0.0.2 that sends the start of a request and never finishes its headers.
        static func slowloris(port: UInt16) throws -> RawHTTPConnection {
            let connection = try RawHTTPConnection(port: port, from: "127.0.0.2", timeout: 5)
            try? connection.send("GET /state HTTP/1.1\r\nHost: \(connection.host)\r\n")
            return connection
        }

        @Test func connectionsHeldFromOneAddressLeaveRoomForOthers() async throws {
            let test = try TestServer()
            let limit = test.server.configuration.perAddressConnectionLimit
            #expect(limit < test.server.configuration.connectionLimit)
            let hostile = try (0..<test.server.configuration.connectionLimit).map { _ in try Self.slowloris(port: test.port) }
            #expect(try await eventually { test.server.connectionCount == limit }, "\(test.server.connectionCount) connections open")
            let state = try await test.connect().request("GET", "/state")
            #expect(state.status == 200)
            #expect(state.text == #"{"aeState":"converged","evBias":0.0}"#)
            withExtendedLifetime(hostile) {}
        }

        @Test func connectionsWithoutCompleteHeadersAreClosedWhileStreamsLive() async throws {
            let test = try TestServer(headerTimeout: .milliseconds(300))
            let stream = try test.connect()
            try stream.send("GET /stream HTTP/1.1\r\nHost: \(stream.host)\r\n\r\n")
            #expect(try await stream.readHead().status == 200)

            let silent = try RawHTTPConnection(port: test.port, timeout: 5)
            let idleAfterAnswer = try RawHTTPConnection(port: test.port, timeout: 5)
            #expect(try await idleAfterAnswer.request("GET", "/state").status == 200)
            // A byte every 20 ms keeps an inactivity timer from ever firing; the deadline does not move.
            // (The sleep is the slow client under test, not a wait for the server.)
            let dripping = try Self.slowloris(port: test.port)
            let request = Array("X-Padding: \(String(repeating: "a", count: 500))\r\n\r\n".utf8)
            let dripped = await onOwnThread {
                var sent = 0
                while sent < request.count, (try? dripping.send(Data([request[sent]]))) != nil {
                    sent += 1
                    Thread.sleep(forTimeInterval: 0.02)
                }
                return sent
            }
            #expect(dripped < request.count, "the server waited for all \(dripped) bytes")
            #expect(try await dripping.isClosedByServer())
            #expect(try await silent.isClosedByServer())
            #expect(try await idleAfterAnswer.isClosedByServer())

            let part = Data("a frame after the header timeout".utf8)
            test.preview.publish(jpeg: part)
            let received = try await onOwnThread { try stream.nextPart() }
            #expect(received.body == part)
            #expect(try await test.connect().request("GET", "/state").status == 200)
        }

        /// A request without the token is answered as soon as its headers are in, so a body it never
        /// sends holds nothing; the connection closes after the answer.
        @Test func requestWithoutTokenIsRefusedBeforeItsBody() async throws {
            let test = try TestServer(token: try AccessToken("lock-out-test-token"))
            let connection = try RawHTTPConnection(port: test.port, from: "127.0.0.2", timeout: 5)
            try connection.send("POST /api/exposure HTTP/1.1\r\nHost: \(connection.host)\r\nContent-Length: 60000\r\n\r\n{")
            let response = try await connection.readResponse()
            #expect(response.status == 401)
            #expect(response.headers["connection"]?.lowercased() == "close")
            #expect(try await connection.isClosedByServer())
            #expect(test.app.commands.isEmpty)
        }

        /// The whole request, body included, is due by the request deadline, however slowly it drips.
        @Test func requestWhoseBodyIsLateIsClosed() async throws {
            let test = try TestServer(headerTimeout: .milliseconds(300), requestTimeout: .milliseconds(600))
            let connection = try RawHTTPConnection(port: test.port, from: "127.0.0.2", timeout: 5)
            try connection.send("POST /api/exposure HTTP/1.1\r\nHost: \(connection.host)\r\nContent-Length: 500\r\n\r\n")
            // A byte every 20 ms: the body would take 10 s. (The sleep is the slow client under test.)
            let dripped = await onOwnThread {
                var sent = 0
                while sent < 500, (try? connection.send("a")) != nil {
                    sent += 1
                    Thread.sleep(forTimeInterval: 0.02)
                }
                return sent
            }
            #expect(dripped < 500, "the server waited for all \(dripped) bytes")
            #expect(test.app.commands.isEmpty)
            #expect(try await test.connect().request("GET", "/state").status == 200)
        }

        /// Without a token, idle connections make room for new ones when the server is crowded.
        @Test func idleConnectionsMakeRoomWhenCrowded() async throws {
            let test = try TestServer(connectionLimit: 4)
            let idle = try (0..<3).map { _ in try RawHTTPConnection(port: test.port, from: "127.0.0.2", timeout: 5) }
            for connection in idle {
                #expect(try await connection.request("GET", "/state").status == 200)
            }
            #expect(try await test.connect().request("GET", "/state").status == 200)
            #expect(try await idle[0].isClosedByServer())
            #expect(!idle[2].closedWhileIdle())
        }
    }
}
