import CameraTestSupport
import Foundation
import Testing

@Suite("photo --gps end to end")
struct PhotoLocationTests {
    @Test("--gps puts the location into the photo's EXIF, as exiftool reads it")
    func locationInExif() async throws {
        try await withScratchDirectory { directory in
            let result = try await CameraSunBinary.run(["photo", "--source", "sim:gray-card", "--gps", "51.5,-0.125,35", "--library",
                                                        directory.appendingPathComponent("Library").path, "--json"] + PhotoEndToEndTests.small)
            #expect(result.exitCode == 0, "\(result)")
            let assets = try #require(try result.jsonObject()["assets"] as? [[String: Any]])
            let path = try #require(assets.first?["path"] as? String)
            let tags = try #require(try await exiftool([path])[path])
            #expect(abs((jsonNumber(tags["GPSLatitude"]) ?? 0) - 51.5) < 1e-4, "\(tags["GPSLatitude"] ?? "none")")
            #expect(abs((jsonNumber(tags["GPSLongitude"]) ?? 0) + 0.125) < 1e-4, "\(tags["GPSLongitude"] ?? "none")")
            #expect(abs((jsonNumber(tags["GPSAltitude"]) ?? 0) - 35) < 1e-3, "\(tags["GPSAltitude"] ?? "none")")
        }
    }

    @Test("A --gps that is not a place is a usage error naming it", arguments: ["91,0", "0,181", "1", "a,b", "1,2,inf"])
    func badLocation(text: String) async throws {
        let result = try await CameraSunBinary.run(["photo", "--gps", text, "--library", "/nonexistent/never-created"])
        #expect(result.exitCode == 2 && result.stderr.contains("--gps '\(text)' is not LAT,LON"), "\(result)")
    }
}
