import CameraCodecs
import CameraCore
import CameraExposure
import Foundation

/// The self-contained HTML report of `ae-eval --report`: the results table, then per scene what
/// the subject is and why, each algorithm's last frame with the subject outlined, and SVG plots of
/// exposure and subject error against frame number.
public enum AEEvalReport {
    /// An algorithm's line colour in the plots and legend.
    static func colour(_ algorithm: EvaluatedAlgorithm) -> String {
        switch algorithm {
        case .naive: "#d62728"
        case .centre: "#ff7f0e"
        case .libcamera: "#1f77b4"
        case .sun: "#2ca02c"
        }
    }

    /// One scene's runs and what the report says about its subject.
    public struct Section {
        let scene: String
        /// The set it belongs to (`EvaluatedScene.list`).
        let list: String
        /// Why the subject is what it is: the view list's reason, or the built-in scene's summary.
        let why: String
        /// The subject rectangle of an HDR view; nil for built-in scenes, whose subject is painted.
        let subject: NormalizedRect?
        let intent: Double
        /// `SimulatedScene.subjectMeanOverMedian`, in EV.
        let meanOverMedian: Double
        /// The scene at the exposure that puts the subject at its intent (`referenceThumbnail`).
        let reference: PixelBuffer?
        public let results: [ClosedLoopEvaluation.Result]

        /// The sun AE's run, if it ran.
        var sun: ClosedLoopEvaluation.Result? { results.first { $0.algorithm == EvaluatedAlgorithm.sun.rawValue } }
    }

    /// The report of `sections`, in their order.
    public static func html(_ sections: [Section]) throws(CodecError) -> String {
        let results = sections.flatMap(\.results)
        var rows = ""
        for result in results {
            let good = ExposureVerdict.band.contains(result.subjectEvError)
            let verdictClass = result.verdict.meetsBound ? " class=\"good\"" : " class=\"bad\""
            let clippedClass = result.clippedFraction > SunAwareExposure.highlightBudget ? " class=\"bad\"" : ""
            func figure(_ value: Double?, _ format: String) -> String { value.map { String(format: format, $0) } ?? "—" }
            rows += "<tr><td>\(escape(result.scene))</td><td>\(escape(result.algorithm))</td><td>\(result.convergeFrames)</td>"
                + "<td class=\"\(good ? "good" : "bad")\">\(String(format: "%+.2f", result.subjectEvError))</td>"
                + "<td\(clippedClass)>\(String(format: "%.1f%%", result.clippedFraction * 100))</td>"
                + "<td>\(String(format: "%.1f%%", result.crushedFraction * 100))</td>"
                + "<td>\(result.oscillations)</td><td>\(String(format: "%+.2f", result.sensorExposureEV))</td>"
                + "<td>\(String(format: "%+.2f", result.renderGainEV))</td>"
                + "<td>\(figure(result.tmqi, "%.3f"))</td><td>\(figure(result.globalTmqi, "%.3f"))</td>"
                + "<td>\(figure(result.subjectPsnrDb, "%.1f"))</td><td>\(figure(result.duskEV, "%+.2f"))</td>"
                + "<td\(verdictClass)>\(result.verdict.label)\(result.atDeviceLimit ? " (at the camera's limit)" : "")</td></tr>\n"
        }
        let summaries = (ExposureVerdict.summaries(of: results) + PictureSummary.lists(sections).map(\.line)
                         + ["The ten darkest subjects:"] + PictureSummary.darkestSubjects(sections))
            .map { "<li>\(escape($0))</li>" }.joined(separator: "\n")
        let encoder = try JPEGEncoder()
        var body = ""
        for section in sections {
            body += "<h2>\(escape(section.scene))</h2>\n<p>" + describe(section) + "</p>\n<div class=\"frames\">"
            let frames = [(section.reference, "the intent: subject ΔEV 0")]
                + section.results.flatMap { result in
                    [(result.thumbnail, "\(result.algorithm) \(String(format: "%+.2f EV", result.subjectEvError))")]
                        + (result.globalThumbnail.map { [($0, "\(result.algorithm) --hdr off")] } ?? [])
                }
            for case let (thumbnail?, caption) in frames {
                let jpeg = Data(try encoder.encode(thumbnail, quality: 85)).base64EncodedString()
                body += "<figure><div class=\"frame\"><img src=\"data:image/jpeg;base64,\(jpeg)\" width=\"\(thumbnail.width)\" height=\"\(thumbnail.height)\" alt=\"\(escape(caption))\">"
                if let subject = section.subject {
                    body += "<div class=\"subject\" style=\"left:\(percent(subject.x));top:\(percent(subject.y));width:\(percent(subject.width));height:\(percent(subject.height))\"></div>"
                }
                body += "</div><figcaption>\(escape(caption))</figcaption></figure>"
            }
            body += "</div>\n"
                + plot(section.results, title: "exposure (EV, log2 of seconds at base ISO)", value: \.exposureEV)
                + plot(section.results, title: "subject ΔEV against its intent", value: \.subjectEV, band: ExposureVerdict.band)
        }
        return """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>CameraSun ae-eval</title>
        <style>
        body { font: 14px system-ui, sans-serif; margin: 2em; color: #222 }
        table { border-collapse: collapse } td, th { padding: 3px 10px; border-bottom: 1px solid #ddd; text-align: right }
        td:first-child, td:nth-child(2), th:first-child, th:nth-child(2) { text-align: left }
        .good { color: #2ca02c } .bad { color: #d62728 } svg { margin: 4px 0 16px }
        .frames { display: flex; gap: 12px; flex-wrap: wrap } figure { margin: 0 }
        .frame { position: relative; line-height: 0 } .subject { position: absolute; outline: 1px dashed #ff0; box-sizing: border-box }
        figcaption { font-size: 12px }
        </style></head><body>
        <h1>CameraSun closed-loop auto-exposure evaluation</h1>
        <p>Simulated camera, each scene × algorithm in closed loop, judged on the output picture (what the
        viewfinder and a photo show). Subject ΔEV is log2 of the subject's mean linear output over
        0.18 × 2<sup>intent</sup>, averaged over the last frames; clipped (≥ 250/255) and crushed (≤ 5/255)
        are fractions of the output outside light sources, clipped in red where it breaks the 2% budget.
        Sensor EV is the settled exposure (log2 s at base ISO), render EV the lift the tone mapper gave the
        subject, TMQI the output's quality against the scene radiance, TMQI off the same frame through the
        global curve (<code>--hdr off</code>), PSNR the subject's output noise against the same pipeline fed
        the frame without sensor noise, dusk the change of the mean output level when the view's median is
        5 cd/m². The verdict: within the natural band (the subject from 1 EV below to ⅓ EV above its intent,
        no more than 2% clipped), too bright, too dark, or clipped. Each scene shows itself at the exposure
        that puts the subject at its intent, then every algorithm's last frame, the subject outlined.
        Legend: \(EvaluatedAlgorithm.allCases.sorted { $0.rawValue < $1.rawValue }.map { "<span style=\"color:\(colour($0))\">■ \($0.rawValue)</span>" }.joined(separator: " "))</p>
        <table><tr><th>scene</th><th>algorithm</th><th>frames to converge</th><th>subject ΔEV</th><th>clipped</th><th>crushed</th><th>oscillations</th><th>sensor EV</th><th>render EV</th><th>TMQI</th><th>TMQI off</th><th>PSNR dB</th><th>dusk EV</th><th>verdict</th></tr>
        \(rows)</table>
        <ul>
        \(summaries)
        </ul>
        \(body)
        </body></html>
        """
    }

    /// The subject of `section`, its intent, why it was chosen and how even it is.
    static func describe(_ section: Section) -> String {
        var text = section.subject.map { rect in
            "Subject \(String(format: "%g,%g,%g,%g", rect.x, rect.y, rect.width, rect.height)) (x, y, w, h), intent \(String(format: "%+.1f", section.intent)) EV: "
        } ?? "Built-in scene, intent \(String(format: "%+.1f", section.intent)) EV: "
        text += escape(section.why)
        text += String(format: " Its mean stands %.2f EV above its median: the more, the more its brightest parts weigh in"
                       + " subject ΔEV against its typical pixel.", abs(section.meanOverMedian) < 0.005 ? 0 : section.meanOverMedian)
        return text
    }

    private static func percent(_ fraction: Double) -> String { String(format: "%.2f%%", fraction * 100) }

    /// An SVG line plot of one value per frame for each run, with `band` shaded.
    static func plot(_ runs: [ClosedLoopEvaluation.Result], title: String,
                     value: KeyPath<ClosedLoopEvaluation.Sample, Double>, band: ClosedRange<Double>? = nil) -> String {
        let (width, height, margin) = (640.0, 180.0, 40.0)
        let values = runs.flatMap { $0.samples.map { $0[keyPath: value] } }.filter(\.isFinite)
        let frames = Double(max(runs.map(\.samples.count).max() ?? 1, 2) - 1)
        var low = (values.min() ?? -1).rounded(.down), high = (values.max() ?? 1).rounded(.up)
        if let band { low = min(low, band.lowerBound); high = max(high, band.upperBound) }
        if high - low < 1 { high = low + 1 }
        func x(_ frame: Int) -> Double { margin + Double(frame) / frames * (width - 2 * margin) }
        func y(_ v: Double) -> Double { height - margin / 2 - (min(max(v, low), high) - low) / (high - low) * (height - margin) }
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" role=\"img\">"
        svg += "<text x=\"\(margin)\" y=\"14\" font-size=\"12\">\(escape(title))</text>"
        if let band {
            svg += "<rect x=\"\(margin)\" y=\(quote(y(band.upperBound))) width=\"\(width - 2 * margin)\" height=\(quote(y(band.lowerBound) - y(band.upperBound))) fill=\"#2ca02c\" opacity=\"0.12\"/>"
        }
        for tick in Int(low)...Int(high) where (Int(high) - Int(low)) <= 16 || tick % 2 == 0 {
            svg += "<line x1=\"\(margin)\" x2=\"\(width - margin)\" y1=\(quote(y(Double(tick)))) y2=\(quote(y(Double(tick)))) stroke=\"#eee\"/>"
            svg += "<text x=\"4\" y=\(quote(y(Double(tick)) + 4)) font-size=\"10\">\(tick)</text>"
        }
        for run in runs {
            let points = run.samples.map { "\(String(format: "%.1f", x($0.frame))),\(String(format: "%.1f", y($0[keyPath: value])))" }
            svg += "<polyline fill=\"none\" stroke=\"\(EvaluatedAlgorithm(rawValue: run.algorithm).map(colour) ?? "#777")\" stroke-width=\"1.5\" points=\"\(points.joined(separator: " "))\"/>"
        }
        return svg + "</svg>\n"
    }

    private static func quote(_ value: Double) -> String { "\"\(String(format: "%.1f", value))\"" }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
