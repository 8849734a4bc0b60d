import CameraCodecs
import CameraCore
@testable import CameraEvaluation
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
}
