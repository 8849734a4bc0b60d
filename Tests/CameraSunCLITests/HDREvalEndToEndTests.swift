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
    }

    @Test("an unknown scene is a usage error naming it")
    func unknownScene() async throws {
        let result = try await CameraSunBinary.run(["hdr-eval", "--scenes", "nope"])
        #expect(result.exitCode == 2 && result.stderr.contains("nope"), "\(result)")
    }
}
