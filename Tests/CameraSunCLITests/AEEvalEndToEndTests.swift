import CameraCodecs
import CameraCore
@testable import CameraEvaluation
import CameraExposure
import CameraTestSupport
import Foundation
import Testing

/// `camerasun ae-eval` end to end: its flags reach the evaluation, and its JSON and report carry
/// what the evaluation found.
@Suite struct AEEvalEndToEndTests {
    @Test("ae-eval --json --samples gives every run's frames: exposure, subject and clipping, frame by frame")
    func samples() async throws {
        let result = try await CameraSunBinary.run(["ae-eval", "--scenes", "gray-card", "--algorithms", "naive,sun", "--frames", "6",
                                                    "--width", "64", "--height", "36", "--json", "--samples"])
        #expect(result.exitCode == 0, "\(result)")
        let all = try #require(try result.jsonObject()["results"] as? [[String: Any]])
        let results = all.filter { ["naive", "sun"].contains($0["algorithm"] as? String) }
        #expect(results.count == 2)
        // OpenCV's tone mappers are rows of their own: each renders the loop's last frame once.
        let peers = all.filter { ($0["algorithm"] as? String)?.hasPrefix("opencv-") == true }
        #expect(peers.count == 3 && peers.allSatisfy { ($0["samples"] as? [[String: Any]])?.count == 1 })
        for run in results {
            let samples = try #require(run["samples"] as? [[String: Any]])
            #expect(samples.map { jsonNumber($0["frame"]) } == [0, 1, 2, 3, 4, 5])
            let exposures = samples.compactMap { jsonNumber($0["exposureEV"]) }
            #expect(exposures.count == 6 && Set(exposures).count > 1, "the loop moved the exposure: \(exposures)")
            // The run's subject ΔEV is the mean of its last frames' subject EV (all six here).
            let subjects = samples.compactMap { jsonNumber($0["subjectEV"]) }
            let mean = subjects.reduce(0, +) / Double(max(subjects.count, 1))
            #expect(abs(mean - (jsonNumber(run["subjectEvError"]) ?? .nan)) < 1e-9, "\(subjects) against \(run["subjectEvError"] ?? "")")
        }
    }

    @Test("ae-eval --views runs each listed view, --scenes adds built-ins, and the report carries the reasons")
    func viewsEndToEnd() async throws {
        try await withScratchDirectory { directory in
            // A flat HDR image: a dark lower half (the subject) under a sky 8× brighter.
            var image = RadianceImage(width: 64, height: 36)
            for y in 0..<36 { for x in 0..<64 { image[x, y] = SIMD3(repeating: y < 18 ? 8 : 1) } }
            try RadianceHDREncoder().encode(image).write(to: directory.appendingPathComponent("t.hdr"))
            let list = directory.appendingPathComponent("views.txt")
            try Data("# test\n\(directory.path)/t.hdr 0,0.5,1,0.5 0 The ground under the sky.\n".utf8).write(to: list)
            let report = directory.appendingPathComponent("r.html")
            let result = try await CameraSunBinary.run(["ae-eval", "--views", list.path, "--scenes", "gray-card", "--algorithms", "naive,sun",
                                                        "--frames", "4", "--width", "64", "--height", "36", "--json", "--report", report.path])
            #expect(result.exitCode == 0, "\(result)")
            let results = try #require(try result.jsonObject()["results"] as? [[String: Any]])
            let peers = ["opencv-reinhard", "opencv-mantiuk", "opencv-drago"]
            #expect(results.map { "\($0["scene"] ?? "") \($0["algorithm"] ?? "")" }
                == ["gray-card naive", "gray-card sun"] + peers.map { "gray-card \($0)" } + ["hdr:t.hdr naive", "hdr:t.hdr sun"] + peers.map { "hdr:t.hdr \($0)" })
            #expect(results.allSatisfy { $0["samples"] == nil }, "frames only with --samples")
            // Each run's verdict is the one its own figures give; every row has the output's figures.
            for run in results {
                for key in ["crushedFraction", "subjectSnrDb", "sensorExposureEV", "renderGainEV"] {
                    #expect(jsonNumber(run[key]) != nil, "\(key) in \(run)")
                }
                #expect(run["atDeviceLimit"] as? Bool != nil, "\(run)")
                let verdict = ExposureVerdict(subjectEV: try #require(jsonNumber(run["subjectEvError"])),
                                              clippedFraction: try #require(jsonNumber(run["clippedFraction"])))
                #expect(run["verdict"] as? String == verdict.rawValue, "\(run)")
                // The closed-loop runs measure their output noise; the peers render a frame of the sun run's.
                let isPeer = peers.contains(run["algorithm"] as? String ?? "")
                #expect((jsonNumber(run["subjectPsnrDb"]) != nil) == !isPeer, "\(run)")
            }
            // The sun AE runs each view again at dusk; built-in scenes have their own light.
            let duskRuns = results.filter { jsonNumber($0["duskEV"]) != nil }.map { "\($0["scene"] ?? "") \($0["algorithm"] ?? "")" }
            #expect(duskRuns == ["hdr:t.hdr sun"])
            let html = try String(contentsOf: report, encoding: .utf8)
            #expect(html.contains("intent +0.0 EV: The ground under the sky."))
            #expect(html.contains("\(list.path): 0 of 1 in the natural band") || html.contains("\(list.path): 1 of 1 in the natural band"))
            // Per scene the reference frame, one per algorithm, the sun AE's through the global curve and one per peer.
            #expect(html.components(separatedBy: "data:image/jpeg;base64,").count - 1 == 14)
        }
    }

    @Test("An unknown --algorithms name is a usage error listing every algorithm")
    func unknownAlgorithm() async throws {
        let result = try await CameraSunBinary.run(["ae-eval", "--scenes", "gray-card", "--algorithms", "sun,auto", "--frames", "1"])
        #expect(result.exitCode == 2, "\(result)")
        #expect(result.stderr == "camerasun: error: unknown algorithm 'auto' — choose from naive, centre, libcamera, sun\n")
    }
}
