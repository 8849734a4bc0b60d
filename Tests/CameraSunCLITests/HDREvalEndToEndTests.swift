import CameraCodecs
import CameraCore
import CameraTestSupport
import Foundation
import Testing

/// `camerasun hdr-eval` end to end on a small frame: every method's row, its figures in range, and
/// the bracket's measured noise below the single frame's.
@Suite("camerasun hdr-eval end to end")
struct HDREvalEndToEndTests {
    @Test("--json on backlit-portrait: four methods with their figures; the bracket's subject SNR above the single frame's")
    func backlitPortrait() async throws {
        let result = try await CameraSunBinary.run(["hdr-eval", "--scenes", "backlit-portrait", "--width", "320", "--height", "180",
                                                           "--json"], timeout: 300)
        #expect(result.exitCode == 0, "\(result)")
        let rows = try #require(try result.jsonObject()["results"] as? [[String: Any]], "\(result.stdout)")
        #expect(rows.compactMap { $0["method"] as? String } == ["camerasun-bracket", "camerasun-single", "enfuse", "opencv-mertens"])
        for row in rows {
            for key in ["subjectEvError", "clippedFraction", "mefSSIM", "tmqi", "subjectSnrDb"] {
                #expect(row[key] is NSNumber, "\(key) in \(row)")
            }
            #expect(((row["mefSSIM"] as? NSNumber)?.doubleValue).map { (0...1).contains($0) } == true, "\(row)")
        }
        let snr = Dictionary(uniqueKeysWithValues: rows.compactMap { row in
            (row["method"] as? String).flatMap { method in (row["subjectSnrDb"] as? NSNumber).map { (method, $0.doubleValue) } }
        })
        let (bracket, single) = (try #require(snr["camerasun-bracket"]), try #require(snr["camerasun-single"]))
        #expect(bracket > single + 3, "the bracket's subject SNR \(bracket) dB against the single frame's \(single) dB")
        // The subject needs more than the bracket's +2 EV: the summary counts it among the darkest.
        let summaries = try #require(try result.jsonObject()["summaries"] as? [[String: Any]], "\(result.stdout)")
        #expect(summaries.count == 1 && summaries.first?["list"] as? String == "built-in", "\(summaries)")
        let darkest = try #require(summaries.first?["darkestSubjects"] as? [String: NSNumber], "\(summaries)")
        let gain = try #require(darkest["backlit-portrait"]?.doubleValue, "\(darkest)")
        #expect(abs(gain - (bracket - single)) < 1e-9)
    }

    @Test("--views runs each listed view under its list's name, --scenes adds built-ins, and each list is summed up")
    func views() async throws {
        try await withScratchDirectory { directory in
            // A flat HDR image: a dark lower half (the subject) under a sky 32× brighter.
            var image = RadianceImage(width: 64, height: 36)
            for y in 0..<36 { for x in 0..<64 { image[x, y] = SIMD3(repeating: y < 18 ? 32 : 1) } }
            try RadianceHDREncoder().encode(image).write(to: directory.appendingPathComponent("t.hdr"))
            let list = directory.appendingPathComponent("views.txt")
            try Data("# test\n\(directory.path)/t.hdr 0,0.5,1,0.5 0 The ground under the sky.\n".utf8).write(to: list)
            let result = try await CameraSunBinary.run(["hdr-eval", "--views", list.path, "--scenes", "gray-card", "--width", "320",
                                                        "--height", "180", "--json"], timeout: 300)
            #expect(result.exitCode == 0, "\(result)")
            let rows = try #require(try result.jsonObject()["results"] as? [[String: Any]], "\(result.stdout)")
            #expect(rows.compactMap { $0["list"] as? String } == Array(repeating: "built-in", count: 4) + Array(repeating: list.path, count: 4))
            #expect(rows.compactMap { $0["scene"] as? String }.last?.hasPrefix("hdr:t.hdr") == true, "\(rows)")
            let summaries = try #require(try result.jsonObject()["summaries"] as? [[String: Any]], "\(result.stdout)")
            #expect(summaries.compactMap { $0["list"] as? String } == ["built-in", list.path])
            for (summary, listRows) in zip(summaries, [Array(rows[0..<4]), Array(rows[4..<8])]) {
                let inBound = listRows.filter { $0["method"] as? String == "camerasun-bracket" && $0["withinBound"] as? Bool == true }.count
                #expect((summary["bracketWithinBound"] as? NSNumber)?.intValue == inBound, "\(summary)")
                let medians = try #require(summary["medians"] as? [[String: Any]])
                // One scene per list: each method's median is its row's figure.
                for (median, row) in zip(medians, listRows) {
                    #expect(median["method"] as? String == row["method"] as? String)
                    #expect((median["mefSSIM"] as? NSNumber)?.doubleValue == (row["mefSSIM"] as? NSNumber)?.doubleValue)
                }
            }
        }
    }

    @Test("an unknown scene is a usage error naming it")
    func unknownScene() async throws {
        let result = try await CameraSunBinary.run(["hdr-eval", "--scenes", "nope"])
        #expect(result.exitCode == 2 && result.stderr.contains("nope"), "\(result)")
    }
}
