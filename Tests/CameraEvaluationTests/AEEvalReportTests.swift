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

    /// A run whose last frame is `thumbnail()`.
    func run(_ algorithm: String) throws -> ClosedLoopEvaluation.Result {
        let samples = (0..<12).map { ClosedLoopEvaluation.Sample(frame: $0, time: Double($0) / 30, exposureEV: -8, renderGainEV: 1.5,
                                                                 subjectEV: 0.5, clippedFraction: 0, crushedFraction: 0) }
        var result = ClosedLoopEvaluation.judge(samples, scene: "hdr:t.hdr", algorithm: algorithm)
        result.thumbnail = try thumbnail()
        return result
    }

    @Test("Each section gives the subject, intent, reason and evenness, the scene at its intent and every run's last frame as JPEGs with the subject outlined")
    func section() throws {
        let section = AEEvalReport.Section(scene: "hdr:t.hdr", list: "v.txt", why: "The wall <left>.", subject: NormalizedRect(x: 0.25, y: 0.5, width: 0.5, height: 0.25),
                                           intent: 0.5, meanOverMedian: 1.234, reference: try thumbnail(),
                                           results: [try run("naive"), try run("sun")])
        let html = try AEEvalReport.html([section])
        #expect(html.contains("Subject 0.25,0.5,0.5,0.25 (x, y, w, h), intent +0.5 EV: The wall &lt;left&gt;. Its mean stands 1.23 EV above its median"))
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
        let section = AEEvalReport.Section(scene: "gray-card", list: "built-in scenes", why: "A grey card.", subject: nil, intent: 0, meanOverMedian: 0,
                                           reference: nil, results: [try run("sun")])
        let html = try AEEvalReport.html([section])
        #expect(html.contains("Built-in scene, intent +0.0 EV: A grey card. Its mean stands 0.00 EV above its median"))
        #expect(!html.contains("class=\"subject\" style"))
        #expect(html.contains("data:image/jpeg;base64,"))
    }

    @Test("Clipping beyond 2% is marked bad; the row carries crushing, the sensor exposure, the render gain, the picture's figures and the limit")
    func clippingJudged() throws {
        func result(subjectEV: Double, atLimit: Bool = false) -> ClosedLoopEvaluation.Result {
            let samples = (0..<12).map { ClosedLoopEvaluation.Sample(frame: $0, time: Double($0) / 30, exposureEV: -8, renderGainEV: 2,
                                                                     subjectEV: subjectEV, clippedFraction: 0.1, crushedFraction: 0.03) }
            var result = ClosedLoopEvaluation.judge(samples, scene: "s", algorithm: "sun", atDeviceLimit: atLimit)
            (result.tmqi, result.globalTmqi, result.subjectPsnrDb, result.duskEV) = (0.9, 0.85, 31.25, -1.5)
            return result
        }
        func html(_ result: ClosedLoopEvaluation.Result) throws -> String {
            try AEEvalReport.html([AEEvalReport.Section(scene: "s", list: "built-in scenes", why: "", subject: nil, intent: 0, meanOverMedian: 0,
                                                        reference: nil, results: [result])])
        }
        let clipped = try html(result(subjectEV: 0, atLimit: true))
        #expect(clipped.contains("<td class=\"bad\">10.0%</td><td>3.0%</td><td>0</td><td>-8.00</td><td>+2.00</td><td>0.900</td><td>0.850</td>"
            + "<td>31.2</td><td>-1.50</td><td class=\"bad\">clipped (at the camera's limit)</td>"))
        #expect(clipped.contains("<li>sun: 0 of 1 in the natural band; 0 too bright (0 by more than 1 EV), 0 too dark, 1 clipping over 2%;"))
        #expect(clipped.contains("<li>built-in scenes: 0 of 1 in the natural band, 0 more than 1 EV too bright;"))
        let bright = try html(result(subjectEV: 0.5))
        #expect(bright.contains("<td class=\"bad\">+0.50</td>") && bright.contains("<td class=\"bad\">too bright</td>"))
    }
}
