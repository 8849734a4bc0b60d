import CameraCore
import CameraTestSupport
import Foundation
import Testing
@testable import HTTPServer

extension ServerTests {
    /// Clients without the token cannot keep one who has it from being served, however many
    /// connections they hold and however they misbehave. On loopback every address of 127.0.0.0/8 is
    /// this machine: the hostile clients connect from 127.0.0.2–5 (and 127.0.1.x when there are more
    /// than four), the token holder from 127.0.0.6.
    /// Serialized: each case loads the machine. The latencies are printed, not asserted: a test
    /// asserts that the holder is served, not how fast a loaded machine serves it.
    @Suite(.serialized) struct HostileLoad {
        /// How long each kind of hostile client runs while the token holder is measured.
        static let attackDuration = Duration.seconds(20)

        /// The acceptance cases: 128 connections from four addresses, each kind in turn; and idle
        /// connections from 32 addresses, more than the per-address limit can hold back.
        @Test(arguments: HostileClients.Kind.allCases.map { ($0, 4) } + [(.idle, 32)])
        func tokenHolderIsServedWhileConnectionsWithoutItMisbehave(_ kind: HostileClients.Kind, addresses: Int) async throws {
            let token = try AccessToken("hostile-load-test-token")
            let test = try TestServer(token: token)
            // 127.0.0.2 and on, leaving out the token holder's 127.0.0.6.
            let sources = (0..<addresses).map { index in index < 4 ? "127.0.0.\(index + 2)" : "127.0.\(1 + index / 200).\(index % 200 + 2)" }
            let hostile = HostileClients(kind: kind, port: test.port, sources: sources, perSource: 128 / addresses)
            await hostile.start()
            let latencies = await Self.tokenHolder(port: test.port, token: token, from: "127.0.0.6", for: Self.attackDuration)
            let stats = await hostile.stop()

            let withinSecond = latencies.filter { $0.map { $0 <= .seconds(1) } ?? false }.count
            let answered = latencies.compactMap(\.self).sorted()
            let median = answered.isEmpty ? nil : answered[answered.count / 2]
            let summary = "\(kind) from \(addresses) addresses: \(withinSecond) of \(latencies.count) token requests answered within 1 s "
                + "(\(answered.count) answered, median \(median.map { "\($0)" } ?? "-")); hostile clients opened \(stats.opened) connections, "
                + "\(stats.answered) answered"
            print(summary)
            #expect(stats.opened >= 128)
            #expect(latencies.count >= 20, "\(summary)")
            #expect(answered.count == latencies.count, "\(summary)")
        }

        /// The token holder's requests for `duration`: each `GET /state` on a new connection from
        /// `source`, one every `interval` (or as soon as the previous one ends, when that is later);
        /// the time each took until its answer was read, nil when it failed three times or got no 200 (a
    /// connection the server left unanswered for 10 s fails).
        static func tokenHolder(
            port: UInt16, token: AccessToken, from source: String, for duration: Duration, every interval: Duration = .milliseconds(100)
        ) async -> [Duration?] {
            await onOwnThread {
                let clock = ContinuousClock()
                let end = clock.now + duration
                var next = clock.now
                var latencies: [Duration?] = []
                while clock.now < end {
                    let start = clock.now
                    // A GET whose connection failed is sent again, a tenth of a second later, up to
                    // three times in all, as a client does: on a loaded machine the flood may fill
                    // the server's connections before it has closed the tokenless ones.
                    var response: RawHTTPConnection.Response?
                    for attempt in 0..<3 where response == nil {
                        if attempt > 0 { Thread.sleep(forTimeInterval: 0.1) }
                        response = try? RawHTTPConnection(port: port, from: source, timeout: 10)
                            .request("GET", "/state", headers: ["Authorization": "Bearer \(token.value)"])
                    }
                    latencies.append(response?.status == 200 ? clock.now - start : nil)
                    // The pace of the client under test, not a wait for the server.
                    next += interval
                    if next > clock.now { Thread.sleep(forTimeInterval: (next - clock.now).seconds) }
                }
                return latencies
            }
        }
    }
}
