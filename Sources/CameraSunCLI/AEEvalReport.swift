import Foundation

/// The self-contained HTML report of `ae-eval --report`: the results table, and per scene an SVG
/// plot of exposure and subject error against frame number for each algorithm.
enum AEEvalReport {
    static let colours = ["naive": "#d62728", "centre": "#ff7f0e", "libcamera": "#1f77b4", "sun": "#2ca02c"]

    static func html(_ results: [ClosedLoopEvaluation.Result]) -> String {
        var rows = ""
        for result in results {
            let good = abs(result.subjectEvError) <= 1.0 / 3
            rows += "<tr><td>\(escape(result.scene))</td><td>\(escape(result.algorithm))</td><td>\(result.convergeFrames)</td>"
                + "<td class=\"\(good ? "good" : "bad")\">\(String(format: "%+.2f", result.subjectEvError))</td>"
                + "<td>\(String(format: "%.1f%%", result.clippedFraction * 100))</td><td>\(result.oscillations)</td></tr>\n"
        }
        var plots = ""
        var scenes: [String] = []
        for result in results where !scenes.contains(result.scene) { scenes.append(result.scene) }
        for scene in scenes {
            let runs = results.filter { $0.scene == scene }
            plots += "<h2>\(escape(scene))</h2>\n"
                + plot(runs, title: "exposure (EV, log2 of seconds at base ISO)", value: \.exposureEV)
                + plot(runs, title: "subject ΔEV against its intent", value: \.subjectEV, band: 1.0 / 3)
        }
        return """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>CameraSun ae-eval</title>
        <style>
        body { font: 14px system-ui, sans-serif; margin: 2em; color: #222 }
        table { border-collapse: collapse } td, th { padding: 3px 10px; border-bottom: 1px solid #ddd; text-align: right }
        td:first-child, td:nth-child(2), th:first-child, th:nth-child(2) { text-align: left }
        .good { color: #2ca02c } .bad { color: #d62728 } svg { margin: 4px 0 16px }
        </style></head><body>
        <h1>CameraSun closed-loop auto-exposure evaluation</h1>
        <p>Simulated camera, each scene × algorithm in closed loop. Subject ΔEV is log2 of the subject's mean
        linear output over 0.18 × 2<sup>intent</sup>, averaged over the last frames; clipped is the
        non-sun clipped fraction. Legend: \(colours.sorted { $0.key < $1.key }.map { "<span style=\"color:\($0.value)\">■ \($0.key)</span>" }.joined(separator: " "))</p>
        <table><tr><th>scene</th><th>algorithm</th><th>frames to converge</th><th>subject ΔEV</th><th>clipped</th><th>oscillations</th></tr>
        \(rows)</table>
        \(plots)
        </body></html>
        """
    }

    /// An SVG line plot of one value per frame for each run, with an optional ±`band` shaded.
    static func plot(_ runs: [ClosedLoopEvaluation.Result], title: String,
                     value: KeyPath<ClosedLoopEvaluation.Sample, Double>, band: Double? = nil) -> String {
        let (width, height, margin) = (640.0, 180.0, 40.0)
        let values = runs.flatMap { $0.samples.map { $0[keyPath: value] } }.filter(\.isFinite)
        let frames = Double(max(runs.map(\.samples.count).max() ?? 1, 2) - 1)
        var low = (values.min() ?? -1).rounded(.down), high = (values.max() ?? 1).rounded(.up)
        if let band { low = min(low, -band); high = max(high, band) }
        if high - low < 1 { high = low + 1 }
        func x(_ frame: Int) -> Double { margin + Double(frame) / frames * (width - 2 * margin) }
        func y(_ v: Double) -> Double { height - margin / 2 - (min(max(v, low), high) - low) / (high - low) * (height - margin) }
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" role=\"img\">"
        svg += "<text x=\"\(margin)\" y=\"14\" font-size=\"12\">\(escape(title))</text>"
        if let band {
            svg += "<rect x=\"\(margin)\" y=\(quote(y(band))) width=\"\(width - 2 * margin)\" height=\(quote(y(-band) - y(band))) fill=\"#2ca02c\" opacity=\"0.12\"/>"
        }
        for tick in Int(low)...Int(high) where (Int(high) - Int(low)) <= 16 || tick % 2 == 0 {
            svg += "<line x1=\"\(margin)\" x2=\"\(width - margin)\" y1=\(quote(y(Double(tick)))) y2=\(quote(y(Double(tick)))) stroke=\"#eee\"/>"
            svg += "<text x=\"4\" y=\(quote(y(Double(tick)) + 4)) font-size=\"10\">\(tick)</text>"
        }
        for run in runs {
            let points = run.samples.map { "\(String(format: "%.1f", x($0.frame))),\(String(format: "%.1f", y($0[keyPath: value])))" }
            svg += "<polyline fill=\"none\" stroke=\"\(colours[run.algorithm] ?? "#777")\" stroke-width=\"1.5\" points=\"\(points.joined(separator: " "))\"/>"
        }
        return svg + "</svg>\n"
    }

    private static func quote(_ value: Double) -> String { "\"\(String(format: "%.1f", value))\"" }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
