import CameraTestSupport
import Foundation
import Testing

/// `camerasun photo` run as a user would, with the library checked through `camerasun library` and
/// the files through exiftool. Frames are 320x180 so the debug binary stays quick.
@Suite("camerasun photo end to end")
struct PhotoEndToEndTests {
    static let small = ["--width", "320", "--height", "180"]

    @Test("photo --count 5 --json: five photos whose files, catalogue rows and EXIF agree with the JSON")
    func photoJSON() async throws {
        try await withScratchDirectory { directory in
            let libraryDirectory = directory.appendingPathComponent("Library")
            let result = try await CameraSunBinary.run(["photo", "--source", "sim:gray-card", "--count", "5", "--library",
                                                        libraryDirectory.path, "--json"] + Self.small)
            #expect(result.exitCode == 0, "\(result)")
            #expect(result.stderr.isEmpty)
            #expect(result.stdoutLines.count == 1, "one JSON object on one line")
            let assets = try #require(try result.jsonObject()["assets"] as? [[String: Any]])
            try #require(assets.count == 5, "\(result)")
            let ids = assets.compactMap { $0["id"] as? String }
            #expect(Set(ids).count == 5)
            for asset in assets {
                #expect(Set(asset.keys) == ["id", "path", "width", "height", "exposureTime", "iso", "evBias", "meteringMode",
                                            "flash", "flashFired", "shutterToFileMs"])
                #expect(asset["flash"] as? String == "off" && asset["flashFired"] as? Bool == false)
                let path = try #require(asset["path"] as? String)
                #expect(path.hasPrefix(libraryDirectory.path + "/"))
                let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
                #expect(bytes.prefix(2) == [0xFF, 0xD8] && bytes.suffix(2) == [0xFF, 0xD9], "\(path) is not a whole JPEG")
                #expect(jsonNumber(asset["width"]) == 320 && jsonNumber(asset["height"]) == 180)
                #expect(asset["meteringMode"] as? String == "sun")
                #expect(jsonNumber(asset["evBias"]) == 0)
                #expect((0.00002...(1.0 / 30)).contains(jsonNumber(asset["exposureTime"]) ?? 0))
                #expect(jsonNumber(asset["iso"]) ?? 0 >= 50)
                #expect(jsonNumber(asset["shutterToFileMs"]) ?? 0 > 0)
            }

            let verify = try await libraryCommand("verify", libraryDirectory)
            #expect(verify.result.exitCode == 0, "\(verify.result)")
            #expect(verify.json["isClean"] as? Bool == true)
            #expect(jsonNumber(verify.json["assetCount"]) == 5 && jsonNumber(verify.json["fileCount"]) == 5)
            let rows = try await #require(try libraryCommand("list", libraryDirectory).json["assets"] as? [[String: Any]])
            #expect(Set(rows.compactMap { $0["id"] as? String }) == Set(ids))
            #expect(rows.allSatisfy { $0["meteringStatistics"] is String && $0["exposure"] is [String: Any] })

            let exif = try await exiftool(assets.compactMap { $0["path"] as? String })
            for asset in assets {
                let path = asset["path"] as? String ?? "?"
                let tags = try #require(exif[path], "exiftool did not read \(path)")
                let exposureTime = try #require(jsonNumber(asset["exposureTime"]))
                #expect(abs((jsonNumber(tags["ExposureTime"]) ?? 0) / exposureTime - 1) < 1e-6, "ExposureTime \(tags["ExposureTime"] ?? "none") vs \(exposureTime)")
                #expect(jsonNumber(tags["ISO"]) == jsonNumber(asset["iso"]))
                #expect(jsonNumber(tags["ExifImageWidth"]) == 320 && jsonNumber(tags["ExifImageHeight"]) == 180)
                #expect(tags["Make"] as? String == "CameraSun")
                #expect(tags["Model"] as? String == "Simulated camera (gray-card)")
                #expect(jsonNumber(tags["MeteringMode"]) == 255, "sun-aware metering has no EXIF code: other")
            }
        }
    }

    @Test("--shutter and --gain fix the exposure, even longer than a frame at 30 fps; --metering spot@x,y is recorded")
    func fixedExposure() async throws {
        try await withScratchDirectory { directory in
            let libraryDirectory = directory.appendingPathComponent("Library")
            let result = try await CameraSunBinary.run(["photo", "--source", "sim:gray-card", "--count", "2", "--library", libraryDirectory.path,
                                                        "--shutter", "1/10", "--gain", "2", "--metering", "spot@0.25,0.75", "--json"] + Self.small)
            #expect(result.exitCode == 0, "\(result)")
            let assets = try #require(try result.jsonObject()["assets"] as? [[String: Any]])
            try #require(assets.count == 2)
            for asset in assets {
                #expect(abs((jsonNumber(asset["exposureTime"]) ?? 0) - 0.1) < 1e-9, "\(asset)")
                #expect(jsonNumber(asset["iso"]) == 100)
                #expect(asset["meteringMode"] as? String == "spot@0.25,0.75")
            }
            let exif = try await exiftool(assets.compactMap { $0["path"] as? String })
            for tags in exif.values {
                #expect(abs((jsonNumber(tags["ExposureTime"]) ?? 0) - 0.1) < 1e-9)
                #expect(jsonNumber(tags["ISO"]) == 100)
                #expect(jsonNumber(tags["MeteringMode"]) == 3, "spot")
                #expect(jsonNumber(tags["ExposureMode"]) == 1, "manual")
            }
        }
    }

    @Test("Without --json each photo gets a line as it is saved, then a summary")
    func humanOutput() async throws {
        try await withScratchDirectory { directory in
            let libraryDirectory = directory.appendingPathComponent("Library")
            let result = try await CameraSunBinary.run(["photo", "--source", "sim:gray-card", "--count", "3", "--library",
                                                        libraryDirectory.path] + Self.small)
            #expect(result.exitCode == 0, "\(result)")
            let lines = result.stdoutLines
            try #require(lines.count == 5, "\(result)")
            #expect(lines[0].hasPrefix("Simulated camera (gray-card), 320x180: exposure converged at "))
            let photoLines = lines[1...3].sorted()
            for (index, line) in photoLines.enumerated() {
                #expect(line.hasPrefix("photo \(index + 1)/3: "), "\(line)")
                #expect(line.contains("320x180") && line.contains(" sun ") && line.hasSuffix(" ms"), "\(line)")
            }
            #expect(lines[4].hasPrefix("3 photos saved in \(libraryDirectory.path); shutter → file median "))
        }
    }

    @Test("--flash auto at night-street: both photos fired the flash, as JSON and exiftool say")
    func flashAuto() async throws {
        try await withScratchDirectory { directory in
            let libraryDirectory = directory.appendingPathComponent("Library")
            let result = try await CameraSunBinary.run(["photo", "--source", "sim:night-street", "--flash", "auto", "--count", "2",
                                                        "--library", libraryDirectory.path, "--json"] + Self.small)
            #expect(result.exitCode == 0, "\(result)")
            let assets = try #require(try result.jsonObject()["assets"] as? [[String: Any]])
            try #require(assets.count == 2, "\(result)")
            for asset in assets {
                #expect(asset["flash"] as? String == "auto" && asset["flashFired"] as? Bool == true, "\(asset)")
                #expect((1.0 / 64...1).contains(jsonNumber(asset["flashPower"]) ?? 0), "\(asset)")
                #expect(asset["flashOutOfReach"] is Bool && jsonNumber(asset["flashSubjectEV"]) != nil, "\(asset)")
            }
            for tags in try await exiftool(assets.compactMap { $0["path"] as? String }).values {
                #expect(jsonNumber(tags["Flash"]) == 0x19, "auto, fired")
            }
            // The catalogue keeps what the flash did with the photo's metering statistics.
            let powers = Set(assets.compactMap { jsonNumber($0["flashPower"]) })
            let rows = try await #require(try libraryCommand("list", libraryDirectory).json["assets"] as? [[String: Any]])
            #expect(rows.count == 2)
            for row in rows {
                let statistics = try #require((row["meteringStatistics"] as? String).flatMap { text in
                    try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
                }, "\(row)")
                #expect(statistics["flash"] as? String == "auto")
                #expect(jsonNumber(statistics["flashPower"]).map(powers.contains) == true, "\(statistics)")
            }
        }
    }

    /// Metered as average, night-street's picture is the sensor's at ISO 400 with no render gain:
    /// the street, 3 to 43 m away, stays far under mid-grey whatever the flash gives.
    @Test("--flash on where the subject is beyond the flash: the line and the JSON say it was out of reach, by how much")
    func flashOutOfReach() async throws {
        try await withScratchDirectory { directory in
            let libraryDirectory = directory.appendingPathComponent("Library")
            let arguments = ["photo", "--source", "sim:night-street", "--metering", "average", "--flash", "on",
                             "--library", libraryDirectory.path] + Self.small
            let json = try await CameraSunBinary.run(arguments + ["--json"])
            #expect(json.exitCode == 0, "\(json)")
            let asset = try #require((try json.jsonObject()["assets"] as? [[String: Any]])?.first, "\(json)")
            #expect(jsonNumber(asset["flashPower"]) == 1 && asset["flashOutOfReach"] as? Bool == true, "\(asset)")
            let subjectEV = try #require(jsonNumber(asset["flashSubjectEV"]), "\(asset)")
            #expect(subjectEV < -1.0 / 3, "\(asset)")
            let text = try await CameraSunBinary.run(arguments)
            #expect(text.exitCode == 0, "\(text)")
            let line = try #require(text.stdoutLines.first { $0.hasPrefix("photo 1/1: ") }, "\(text)")
            #expect(line.contains("flash 100% (subject out of the flash's reach: ") && line.contains(" EV under its target)"), "\(line)")
        }
    }
}
