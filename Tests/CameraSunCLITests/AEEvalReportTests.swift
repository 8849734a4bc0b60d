import CameraCodecs
import CameraCore
@testable import CameraSunCLI
import Foundation
import Testing

/// `ae-eval --views … --report`: the report says what each subject is and why, and shows each
/// algorithm's last frame with the subject outlined.
@Suite struct AEEvalReportTests {
    /// A 24×12 grey thumbnail.
    func thumbnail() throws -> PixelBuffer {
        let thumbnail = try PixelBuffer(format: .bgra8, width: 24, height: 12)
        thumbnail.withUnsafeMutableBytes(plane: 0) { bytes in for i in bytes.indices { bytes[i] = 128 } }
        return thumbnail
    }

    /// A run whose last frame is `thumbnail()`, of a scene whose budget costs `budgetCost` EV.
    func run(_ algorithm: String, budgetCost: Double = 0) throws -> ClosedLoopEvaluation.Result {
        let samples = (0..<12).map { ClosedLoopEvaluation.Sample(frame: $0, time: Double($0) / 30, exposureEV: -8, subjectEV: 0.5, clippedFraction: 0) }
        var result = ClosedLoopEvaluation.judge(samples, scene: "hdr:t.hdr", algorithm: algorithm)
        result.thumbnail = try thumbnail()
        result.highlightBudgetCost = budgetCost
        return result
    }

    @Test("Each section gives the subject, intent, reason and evenness, the scene at its intent and every run's last frame as JPEGs with the subject outlined")
    func section() throws {
        let section = AEEvalReport.Section(scene: "hdr:t.hdr", why: "The wall <left>.", subject: NormalizedRect(x: 0.25, y: 0.5, width: 0.5, height: 0.25),
                                           intent: 0.5, meanOverMedian: 1.234, reference: try thumbnail(),
                                           results: [try run("naive", budgetCost: 0.62), try run("sun", budgetCost: 0.62)])
        let html = try AEEvalReport.html([section])
        #expect(html.contains("Subject 0.25,0.5,0.5,0.25 (x, y, w, h), intent +0.5 EV: The wall &lt;left&gt;. Its mean stands 1.23 EV above its median"))
        #expect(html.contains("costs the subject 0.62 EV, no more than 1 EV: the highlight budget wins"))
        #expect(html.components(separatedBy: "left:25.00%;top:50.00%;width:50.00%;height:25.00%").count - 1 == 3)
        #expect(html.contains("<figcaption>the intent: subject ΔEV 0</figcaption>"))
        #expect(html.contains("<figcaption>sun +0.50 EV</figcaption>"))
        let images = html.components(separatedBy: "data:image/jpeg;base64,").dropFirst()
        #expect(images.count == 3)
        for image in images {
            let base64 = String(image.prefix { $0 != "\"" })
            let decoded = try JPEGDecoder().decode([UInt8](try #require(Data(base64Encoded: base64))))
            #expect(decoded.width == 24 && decoded.height == 12)
        }
    }

    @Test("A built-in scene's subject is painted, not a rectangle: no outline")
    func builtIn() throws {
        let section = AEEvalReport.Section(scene: "gray-card", why: "A grey card.", subject: nil, intent: 0, meanOverMedian: 0,
                                           reference: nil, results: [try run("sun")])
        let html = try AEEvalReport.html([section])
        #expect(html.contains("Built-in scene, intent +0.0 EV: A grey card. Its mean stands 0.00 EV above its median"))
        #expect(!html.contains("class=\"subject\" style"))
        #expect(html.contains("data:image/jpeg;base64,"))
    }

    @Test("Clipping beyond 2% is a fault where the budget costs at most 1 EV, the subject-wins price beyond")
    func clippingJudged() throws {
        let samples = (0..<12).map { ClosedLoopEvaluation.Sample(frame: $0, time: Double($0) / 30, exposureEV: -8, subjectEV: 0, clippedFraction: 0.1) }
        var result = ClosedLoopEvaluation.judge(samples, scene: "s", algorithm: "sun")
        for (cost, breaks) in [(0.56, true), (1.0, true), (4.0, false), (nil, false)] as [(Double?, Bool)] {
            result.highlightBudgetCost = cost
            #expect(AEEvalReport.breaksBudget(result) == breaks, "cost \(String(describing: cost))")
        }
        result.highlightBudgetCost = 0.56
        let html = try AEEvalReport.html([AEEvalReport.Section(scene: "s", why: "", subject: nil, intent: 0, meanOverMedian: 0, reference: nil,
                                                               results: [result])])
        #expect(html.contains("<td class=\"bad\">10.0%</td><td>0</td><td>0.56</td><td class=\"bad\">missed</td>"))
        #expect(html.contains("<li>sun: 0 of 1 within the bound (0 of them the subject winning), 0 at the budget's answer, 1 missed;"))
    }

    @Test("The budget's rule: none at the intent; up to 1 EV the budget wins; beyond, the subject")
    func budgetRule() {
        #expect(AEEvalReport.budgetRule(0).contains("no more than 2% outside the sun clips"))
        #expect(AEEvalReport.budgetRule(1).contains("costs the subject 1.00 EV, no more than 1 EV: the highlight budget wins"))
        #expect(AEEvalReport.budgetRule(1.5).contains("cost the subject 1.50 EV, more than 1 EV: the subject wins"))
        #expect(AEEvalReport.budgetRule(8).contains("cost the subject ≥8 EV"))
        #expect(AEEvalReport.budgetRule(nil) == " The highlight budget's cost was not measured.")
    }

    @Test("ae-eval --json --samples gives every run's frames: exposure, subject and clipping, frame by frame")
    func samples() throws {
        let result = try CameraSunBinary.run(["ae-eval", "--scenes", "gray-card", "--algorithms", "naive,sun", "--frames", "6",
                                              "--width", "64", "--height", "36", "--json", "--samples"])
        #expect(result.exitCode == 0, "\(result)")
        let results = try #require(try result.jsonObject()["results"] as? [[String: Any]])
        #expect(results.count == 2)
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
    func viewsEndToEnd() throws {
        try withScratchDirectory { directory in
            // A flat HDR image: a dark lower half (the subject) under a sky 8× brighter.
            var image = RadianceImage(width: 64, height: 36)
            for y in 0..<36 { for x in 0..<64 { image[x, y] = SIMD3(repeating: y < 18 ? 8 : 1) } }
            try RadianceHDREncoder().encode(image).write(to: directory.appendingPathComponent("t.hdr"))
            let list = directory.appendingPathComponent("views.txt")
            try Data("# test\n\(directory.path)/t.hdr 0,0.5,1,0.5 0 The ground under the sky.\n".utf8).write(to: list)
            let report = directory.appendingPathComponent("r.html")
            let result = try CameraSunBinary.run(["ae-eval", "--views", list.path, "--scenes", "gray-card", "--algorithms", "naive,sun",
                                                  "--frames", "4", "--width", "64", "--height", "36", "--json", "--report", report.path])
            #expect(result.exitCode == 0, "\(result)")
            let results = try #require(try result.jsonObject()["results"] as? [[String: Any]])
            #expect(results.map { "\($0["scene"] ?? "") \($0["algorithm"] ?? "")" } == ["gray-card naive", "gray-card sun", "hdr:t.hdr naive", "hdr:t.hdr sun"])
            #expect(results.allSatisfy { $0["samples"] == nil }, "frames only with --samples")
            // The grey card clips nothing at its intent; the ground under a sky 8× brighter must go
            // under it by about log2(8 × 0.18 / 0.955) = 0.59 EV for the sky not to clip.
            let costs = results.compactMap { jsonNumber($0["highlightBudgetCost"]) }
            #expect(costs.count == 4 && costs[0] == 0 && costs[1] == 0, "\(costs)")
            #expect(costs.dropFirst(2).allSatisfy { abs($0 - 0.59) < 0.1 }, "\(costs)")
            // Each run's verdict is the one its own figures give.
            for (run, cost) in zip(results, costs) {
                let verdict = ExposureVerdict(subjectEV: try #require(jsonNumber(run["subjectEvError"])),
                                              clippedFraction: try #require(jsonNumber(run["clippedFraction"])), budgetCost: cost)
                #expect(run["verdict"] as? String == verdict.rawValue, "\(run)")
            }
            let html = try String(contentsOf: report, encoding: .utf8)
            #expect(html.contains("intent +0.0 EV: The ground under the sky."))
            // Per scene the reference frame and one per algorithm.
            #expect(html.components(separatedBy: "data:image/jpeg;base64,").count - 1 == 6)
        }
    }
}
