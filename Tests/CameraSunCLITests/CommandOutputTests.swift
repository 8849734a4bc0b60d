@testable import CameraSunCLI
import CameraBenchmarks
import Foundation
import Testing

/// The JSON objects commands print, decoded back as a script would see them.
private func jsonObject(_ value: some Encodable) throws -> [String: Any] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let data = try encoder.encode(value)
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
}

@Suite("Report shapes and help text")
struct CommandOutputTests {
    @Test("A benchmark without a peer encodes every key, with explicit nulls")
    func benchmarkWithoutPeer() throws {
        let report = BenchmarkReport(benchmarks: [
            Benchmark(name: "sim-render-1080p-bgra8", unit: "ms/frame", ours: 12.5, peer: nil, peerValue: nil, ratio: nil),
        ])
        let object = try jsonObject(report)
        let benchmarks = try #require(object["benchmarks"] as? [[String: Any]])
        let benchmark = try #require(benchmarks.first)
        #expect(benchmarks.count == 1)
        #expect(Set(benchmark.keys) == ["name", "unit", "ours", "peer", "peerValue", "ratio"])
        #expect(benchmark["name"] as? String == "sim-render-1080p-bgra8")
        #expect(benchmark["unit"] as? String == "ms/frame")
        #expect(benchmark["ours"] as? Double == 12.5)
        #expect(benchmark["peer"] is NSNull)
        #expect(benchmark["peerValue"] is NSNull)
        #expect(benchmark["ratio"] is NSNull)
    }

    @Test("A benchmark with a peer carries its name, value and ratio")
    func benchmarkWithPeer() throws {
        let benchmark = try jsonObject(Benchmark(name: "meter", unit: "ms/frame", ours: 2, peer: "opencv",
                                                              peerValue: 5, ratio: 2.5))
        #expect(benchmark["peer"] as? String == "opencv")
        #expect(benchmark["peerValue"] as? Double == 5)
        #expect(benchmark["ratio"] as? Double == 2.5)
    }

    @Test("The meter status line shows brightness, EV and its error, shutter, ISO, clipping, sun, fps, drops and advice")
    func meterStatusLine() {
        let report = MeterCommand.FrameReport(frame: 3, pts: 0.1, brightness: 0.5, linearMean: 0.21, evError: 0.22, exposureTime: 0.002,
                                              iso: 100, evBias: -0.7, renderGainEV: 0, aeState: "locked", clippedFraction: 0.012, sunFraction: 0.004,
                                              advice: "brightness normal", dropped: 0)
        let line = MeterCommand.statusLine(report, fps: 29.96)
        #expect(line == "▕██████████░░░░░░░░░░▏ 0.50  EV -0.7 (error +0.2)  1/500 s  ISO 100  clip 1.2%  sun 0.4%  30.0 fps  brightness normal")
        let dropping = MeterCommand.FrameReport(frame: 3, pts: 0.1, brightness: 0.5, linearMean: 0.21, evError: 0, exposureTime: 0.002,
                                                iso: 100, evBias: 0, renderGainEV: 0, aeState: "locked", clippedFraction: 0, sunFraction: 0,
                                                advice: "too dark", dropped: 2)
        #expect(MeterCommand.statusLine(dropping, fps: 30).hasSuffix("  dropped 2  too dark"))
    }

    @Test("Brightness bars fill in proportion and clamp", arguments: [
        (0.0, 0), (0.5, 10), (1.0, 20), (0.26, 5), (-1.0, 0), (2.0, 20),
    ])
    func bar(fraction: Double, filled: Int) {
        let bar = Terminal.bar(fraction)
        #expect(bar.count == 20)
        #expect(bar.filter { $0 == "█" }.count == filled)
    }

    @Test("Every command with help text is in the overview, and its usage names it", arguments: HelpCommand.commands.keys.sorted())
    func helpTopics(topic: String) throws {
        let text = try #require(HelpCommand.commands[topic])
        #expect(text.hasPrefix("usage: camerasun \(topic)"))
        #expect(HelpCommand.overview.contains("\n  \(topic)"))
    }
}
