import CameraTestSupport
import Foundation
import Testing

/// `camerasun photo --raw` as a user runs it: one asset of two files, the DNG read by exiftool and
/// rawpy, verified with the library; refused on a stream that is not raw; kept whole in the rescue
/// folder when the library refuses it.
@Suite("camerasun photo --raw end to end")
struct RawPhotoEndToEndTests {
    @Test("photo --raw --json: one asset, JPEG and DNG with equal exposure tags, rawpy reads the mosaic; the DNG deleted, verify names it")
    func rawPair() async throws {
        try await withScratchDirectory { directory in
            let libraryDirectory = directory.appendingPathComponent("Library")
            let result = try await CameraSunBinary.run(["photo", "--source", "sim:gray-card", "--raw", "--library",
                                                        libraryDirectory.path, "--json"] + PhotoEndToEndTests.small)
            #expect(result.exitCode == 0 && result.stderr.isEmpty, "\(result)")
            let assets = try #require(try result.jsonObject()["assets"] as? [[String: Any]])
            try #require(assets.count == 1, "\(result)")
            let jpeg = try #require(assets[0]["path"] as? String), dng = try #require(assets[0]["rawPath"] as? String)
            let id = try #require(assets[0]["id"] as? String)
            #expect(jpeg.hasSuffix("/\(id).jpg") && dng == String(jpeg.dropLast(3)) + "dng", "\(jpeg) \(dng)")
            #expect(files(under: libraryDirectory).filter { !$0.hasPrefix("catalog.sqlite") }.map { ($0 as NSString).lastPathComponent }
                .sorted() == ["\(id).dng", "\(id).jpg"])

            let rows = try await #require(try libraryCommand("list", libraryDirectory).json["assets"] as? [[String: Any]])
            #expect(rows.count == 1 && rows.first?["id"] as? String == id)
            let raw = try #require(rows.first?["raw"] as? [String: Any], "the listing shows the pair's DNG")
            #expect(libraryDirectory.appendingPathComponent(raw["path"] as? String ?? "").path == dng)

            let exif = try await exiftool([jpeg, dng])
            let (jpegTags, dngTags) = (try #require(exif[jpeg]), try #require(exif[dng]))
            #expect(dngTags["FileType"] as? String == "DNG")
            // TIFF rationals as libtiff writes them (through a float) and as libexif does agree to 1e-6.
            for tag in ["ExposureTime", "FNumber", "ISO", "FocalLength"] {
                let (dngValue, jpegValue) = (jsonNumber(dngTags[tag]), jsonNumber(jpegTags[tag]))
                #expect(dngValue.map { abs($0 / (jpegValue ?? .nan) - 1) < 1e-6 } == true,
                        "\(tag): DNG \(dngTags[tag] ?? "none"), JPEG \(jpegTags[tag] ?? "none")")
            }
            #expect(dngTags["DateTimeOriginal"] as? String != nil && dngTags["DateTimeOriginal"] as? String == jpegTags["DateTimeOriginal"] as? String)
            let exposureTime = try #require(jsonNumber(assets[0]["exposureTime"]))
            #expect(abs((jsonNumber(dngTags["ExposureTime"]) ?? 0) / exposureTime - 1) < 1e-6, "the DNG's exposure is the photo's catalogued one")
            let mosaic = try await RawPy.run("mosaic", [dng, directory.appendingPathComponent("mosaic.u16").path])
            #expect(mosaic["width"] as? Int == 320 && mosaic["height"] as? Int == 180)
            #expect(mosaic["colors"] as? String == "RGBG")
            let samples = try Data(contentsOf: directory.appendingPathComponent("mosaic.u16"))
            #expect(samples.count == 320 * 180 * 2)

            let clean = try await libraryCommand("verify", libraryDirectory)
            #expect(clean.result.exitCode == 0 && clean.json["isClean"] as? Bool == true, "\(clean.result)")
            try FileManager.default.removeItem(atPath: dng)
            let verify = try await libraryCommand("verify", libraryDirectory)
            #expect(verify.result.exitCode != 0, "\(verify.result)")
            let issues = try #require(verify.json["issues"] as? [[String: Any]])
            #expect(issues.map { "\($0["kind"] ?? "") \($0["path"] ?? "") \($0["assetID"] ?? "")" }
                == ["missingFile \(raw["path"] ?? "") \(id)"], "\(issues)")
        }
    }

    @Test("photo --raw on a stream that is not raw: the photo is not taken, the error names the format and what to do")
    func refusedOnProcessedStream() async throws {
        try await withScratchDirectory { directory in
            let take = try await FileSourceEndToEndTests.recordedTake(into: directory.appendingPathComponent("Takes").path)
            let library = directory.appendingPathComponent("Photos")
            let result = try await CameraSunBinary.run(["photo", "--source", "file:\(take.path)", "--raw", "--library", library.path],
                                                       timeout: 120)
            #expect(result.exitCode == 1, "\(result)")
            #expect(result.stderr.contains("photo 1/1 was not taken: a RAW + JPEG photo needs the camera's raw frames, and this "
                + "stream's format nv12"), "\(result.stderr)")
            #expect(result.stderr.contains("is not raw — choose a raw (bayer16) format, or take the photo without raw"), "\(result.stderr)")
            #expect(files(under: library).filter { $0.hasSuffix(".jpg") || $0.hasSuffix(".dng") }.isEmpty)
        }
    }

    @Test("A catalogue that refuses the pair's row: both files are kept in the rescue folder, neither in the library")
    func refusedPairRescued() async throws {
        try await withScratchDirectory { directory in
            let (libraryDirectory, _, temporary) = try await libraryRefusingRows(in: directory)

            let result = try await CameraSunBinary.run(["photo", "--source", "sim:gray-card", "--raw", "--library",
                                                        libraryDirectory.path] + PhotoEndToEndTests.small,
                                                       environment: ["TMPDIR": temporary.path])
            #expect(result.exitCode == 1, "\(result)")
            let rescue = temporary.appendingPathComponent("camerasun-rescue")
            let rescued = files(under: rescue)
            #expect(rescued.count == 2 && rescued.map { ($0 as NSString).deletingPathExtension }.allSatisfy { $0 == (rescued[0] as NSString).deletingPathExtension },
                    "one JPEG and its DNG: \(rescued)")
            #expect(Set(rescued.map { ($0 as NSString).pathExtension }) == ["jpg", "dng"])
            let dng = try Data(contentsOf: rescue.appendingPathComponent(rescued.first { $0.hasSuffix(".dng") } ?? ""))
            #expect(dng.prefix(4) == Data([0x49, 0x49, 0x2A, 0x00]), "a little-endian TIFF")
            #expect(files(under: libraryDirectory).filter { $0.hasSuffix(".dng") }.isEmpty)
            #expect(files(under: libraryDirectory).filter { $0.hasSuffix(".jpg") }.count == 1, "only the first photo is in the library")
            #expect(result.stderr.contains("(its JPEG and DNG are kept at \(rescue.path)/") && result.stderr.contains(".dng): "), "\(result.stderr)")
            let verify = try await libraryCommand("verify", libraryDirectory)
            #expect(verify.result.exitCode == 0 && verify.json["isClean"] as? Bool == true, "\(verify.result)")
        }
    }
}

/// `camerasun photo --bracket … --bracket-frames` as a user runs it: the merged photo and each frame
/// as assets of their own in the library, the frames at their own exposures.
@Suite("camerasun photo --bracket-frames end to end")
struct BracketFramesEndToEndTests {
    @Test("--bracket -2,0,2 --bracket-frames --raw --json: four assets, each frame a RAW + JPEG pair at its exposure; verify clean")
    func framesKept() async throws {
        try await withScratchDirectory { directory in
            let libraryDirectory = directory.appendingPathComponent("Library")
            let result = try await CameraSunBinary.run(["photo", "--source", "sim:backlit-portrait", "--bracket", "-2,0,2", "--bracket-frames",
                                                        "--raw", "--library", libraryDirectory.path, "--json"] + PhotoEndToEndTests.small)
            #expect(result.exitCode == 0 && result.stderr.isEmpty, "\(result)")
            let assets = try #require(try result.jsonObject()["assets"] as? [[String: Any]])
            try #require(assets.count == 1, "\(result)")
            let frames = try #require(assets[0]["bracketFrames"] as? [[String: Any]], "\(assets[0])")
            try #require(frames.count == 3)
            let times = frames.compactMap { jsonNumber($0["exposureTime"]) }
            #expect(times.count == 3 && abs(times[1] / times[0] - 4) < 0.04 && abs(times[2] / times[1] - 4) < 0.04, "\(times)")
            for frame in frames {
                #expect((frame["path"] as? String).map { FileManager.default.fileExists(atPath: $0) } == true, "\(frame)")
                #expect((frame["rawPath"] as? String).map { FileManager.default.fileExists(atPath: $0) } == true, "\(frame)")
            }
            let rows = try await #require(try libraryCommand("list", libraryDirectory).json["assets"] as? [[String: Any]])
            #expect(Set(rows.compactMap { $0["id"] as? String }) == Set(([assets[0]] + frames).compactMap { $0["id"] as? String }))
            #expect(rows.count == 4)
            let clean = try await libraryCommand("verify", libraryDirectory)
            #expect(clean.result.exitCode == 0 && clean.json["isClean"] as? Bool == true, "\(clean.result)")
        }
    }
}
