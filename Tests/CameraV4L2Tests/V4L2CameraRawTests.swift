import CameraCapture
import CameraCodecs
import CameraCore
import CameraISP
import CameraTestSupport
import CameraV4L2
import Foundation
import Testing

/// Unpacked Bayer formats (8, 10, 12 and 16 bits in each order) as raw frames: listed, copied
/// bit-exact, calibrated, developed, merged and written as DNG.
@Suite("V4L2Camera raw Bayer formats")
struct V4L2CameraRawTests {
    static let bitDepths = [8, 10, 12, 16]

    /// Every unpacked Bayer code, its four characters, and the order and bit depth of its frames.
    static let codes: [(code: FourCC, name: String, pattern: BayerPattern, bits: Int)] = [
        (.srggb8, "RGGB", .rggb, 8), (.sgrbg8, "GRBG", .grbg, 8), (.sgbrg8, "GBRG", .gbrg, 8), (.sbggr8, "BA81", .bggr, 8),
        (.srggb10, "RG10", .rggb, 10), (.sgrbg10, "BA10", .grbg, 10), (.sgbrg10, "GB10", .gbrg, 10), (.sbggr10, "BG10", .bggr, 10),
        (.srggb12, "RG12", .rggb, 12), (.sgrbg12, "BA12", .grbg, 12), (.sgbrg12, "GB12", .gbrg, 12), (.sbggr12, "BG12", .bggr, 12),
        (.srggb16, "RG16", .rggb, 16), (.sgrbg16, "GR16", .grbg, 16), (.sgbrg16, "GB16", .gbrg, 16), (.sbggr16, "BYR2", .bggr, 16),
    ]

    /// A camera offering vivid's RGGB Bayer formats, rows padded by `rowPadding`, streaming
    /// `bits`-bit frames at 640x480.
    func rawCamera(bits: Int, rowPadding: Int = 0) throws -> (ScriptedV4L2Driver, V4L2Camera) {
        try rawCamera(ScriptedV4L2Driver(formats: ScriptedV4L2Driver.bayerFormats, rowPadding: rowPadding),
                      .bayer16(.rggb, significantBits: bits))
    }

    /// A camera on `driver` streaming `format` at 640x480, its requests until S_FMT forgotten.
    func rawCamera(_ driver: ScriptedV4L2Driver, _ format: PixelFormat) throws -> (ScriptedV4L2Driver, V4L2Camera) {
        let camera = try V4L2Camera(path: "/dev/video0", driver: driver)
        try camera.configure { $0.activeFormat = DeviceFormat(size: size640, pixelFormat: format,
                                                              frameRateRanges: camera.activeFormat.frameRateRanges) }
        driver.clearLog()
        try camera.startStreaming()
        return (driver, camera)
    }

    /// The samples of a bayer16 buffer that differ from the scripted driver's test pattern.
    func wrongSamples(_ buffer: PixelBuffer, bits: Int) -> Int {
        let bytes = buffer.bytes(plane: 0)
        var wrong = 0
        for y in 0..<buffer.height {
            for x in 0..<buffer.width {
                let index = (y * buffer.width + x) * 2
                let sample = UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8
                if sample != ScriptedV4L2Driver.bayerSample(x: x, y: y, significantBits: bits) { wrong += 1 }
            }
        }
        return wrong
    }

    @Test("the probe offers each Bayer code as bayer16 of its bit depth; a camera with processed formats too starts in one of those")
    func formats() throws {
        let rates = [FrameRateRange(minimum: 30, maximum: 30), FrameRateRange(minimum: 15, maximum: 15)]
        let raw = try V4L2Camera(path: "/dev/video0", driver: ScriptedV4L2Driver(formats: ScriptedV4L2Driver.bayerFormats))
        #expect(raw.formats == Self.bitDepths.flatMap { bits in
            [size640, size1280].map { DeviceFormat(size: $0, pixelFormat: .bayer16(.rggb, significantBits: bits), frameRateRanges: rates) }
        })
        #expect(raw.activeFormat.size == size1280)
        let both = try V4L2Camera(path: "/dev/video0", driver: ScriptedV4L2Driver(formats: ScriptedV4L2Driver.bayerFormats
                                                                                      + ScriptedV4L2Driver.standardFormats))
        #expect(both.activeFormat == DeviceFormat(size: size1280, pixelFormat: .yuyv422, frameRateRanges: rates))
    }

    @Test("choosing a Bayer format sets its code", arguments: zip(bitDepths, ["RGGB", "RG10", "RG12", "RG16"]))
    func chosen(bits: Int, code: String) throws {
        let (driver, camera) = try rawCamera(bits: bits)
        defer { camera.stopStreaming() }
        #expect(driver.log[2] == "VIDIOC_S_FMT 640x480 \(code)")
    }

    @Test("every sample arrives exact, 8-bit widened, whatever the rows' padding",
          arguments: bitDepths, [0, 24])
    func samples(bits: Int, rowPadding: Int) async throws {
        let (_, camera) = try rawCamera(bits: bits, rowPadding: rowPadding)
        defer { camera.stopStreaming() }
        let frame = try await camera.nextFrame()
        #expect(frame.buffer.format == .bayer16(.rggb, significantBits: bits))
        #expect(wrongSamples(frame.buffer, bits: bits) == 0)
    }

    @Test("each order and bit depth is taken by its code, as bayer16 of that order, and arrives exact", arguments: codes.indices)
    func orders(index: Int) async throws {
        let (code, name, pattern, bits) = Self.codes[index]
        #expect(code.description == name)
        let format = PixelFormat.bayer16(pattern, significantBits: bits)
        let driver = ScriptedV4L2Driver(formats: [V4L2FormatDescription(code: code, name: "Bayer \(name)")], rowPadding: 8)
        let (_, camera) = try rawCamera(driver, format)
        defer { camera.stopStreaming() }
        #expect(driver.log[2] == "VIDIOC_S_FMT 640x480 \(name)")
        let frame = try await camera.nextFrame()
        #expect(frame.buffer.format == format)
        #expect(wrongSamples(frame.buffer, bits: bits) == 0)
    }

    @Test("each raw frame carries a calibration: black 0, white at the bit depth's largest value, the identity matrix, a noise estimate",
          arguments: bitDepths)
    func calibration(bits: Int) async throws {
        let (_, camera) = try rawCamera(bits: bits)
        defer { camera.stopStreaming() }
        let calibration = try #require(try await camera.nextFrame().metadata.rawCalibration)
        #expect(calibration.blackLevel == 0)
        #expect(calibration.whiteLevel == (1 << bits) - 1)
        #expect(calibration.colorMatrix == RawCalibration.identity)
        #expect(calibration.headroom == 1)
        let noise = try #require(calibration.noise)
        #expect(noise.fullWellElectrons == 4000)
        // 3 e⁻ with the quantisation of a step of 4000 e⁻ / white level added: most at 8 bits.
        let readNoise: [Int: Double] = [8: 5.432, 10: 3.205, 12: 3.013, 16: 3.000]
        #expect(abs(noise.readNoiseElectrons - readNoise[bits]!) < 0.001, "\(noise)")
    }

    @Test("raw frames carry the white-balance gains last applied, for their development")
    func whiteBalance() async throws {
        let (_, camera) = try rawCamera(bits: 10)
        defer { camera.stopStreaming() }
        #expect(try await camera.nextFrame().metadata.whiteBalanceGains == .unity)
        let gains = WhiteBalanceGains(red: 1.9, green: 1, blue: 1.6)
        try camera.apply(SensorControls(exposureDuration: 0.01, analogueGain: 1, whiteBalance: gains))
        #expect(try await camera.nextFrame().metadata.whiteBalanceGains == gains)
    }

    @Test("a processed format's frames carry no raw calibration")
    func processedHasNone() async throws {
        let (_, camera) = try streamingCamera()
        defer { camera.stopStreaming() }
        #expect(try await camera.nextFrame().metadata.rawCalibration == nil)
    }

    @Test("ImagePipeline develops a raw V4L2 frame into a picture of its size", arguments: bitDepths)
    func develops(bits: Int) async throws {
        let (_, camera) = try rawCamera(bits: bits)
        defer { camera.stopStreaming() }
        var pipeline = ImagePipeline()
        try pipeline.develop(try await camera.nextFrame())
        let output = try PixelBuffer(format: .bgra8, width: 640, height: 480)
        try pipeline.renderMeteringView(into: output)
        #expect(distinctBytes(output, plane: 0).count > 16)
    }

    @Test("two raw V4L2 frames merge as a bracket: the calibration gives BracketMerger their noise")
    func merges() async throws {
        let (_, camera) = try rawCamera(bits: 10)
        defer { camera.stopStreaming() }
        let first = try #require(try BracketFrame(try await camera.nextFrame()))
        let second = try #require(try BracketFrame(try await camera.nextFrame()))
        let merged = try BracketMerger().merge([first, second], reference: 0)
        #expect(merged.buffer.width == 640 && merged.buffer.height == 480)
    }

    @Test("a DNG of a raw V4L2 frame passes exiftool -validate with black 0 and white at the bit depth, and raw-identify reads its order",
          arguments: [(FourCC.srggb8, "RGGB"), (.sgrbg10, "GRBG"), (.sgbrg12, "GBRG"), (.sbggr16, "BGGR")])
    func dng(code: FourCC, order: String) async throws {
        guard case .bayer16(_, let bits)? = code.pixelFormat else { Issue.record("\(code) is not Bayer"); return }
        let driver = ScriptedV4L2Driver(formats: [V4L2FormatDescription(code: code, name: "Bayer")])
        let (_, camera) = try rawCamera(driver, try #require(code.pixelFormat))
        defer { camera.stopStreaming() }
        let frame = try await camera.nextFrame()
        let calibration = try #require(frame.metadata.rawCalibration)
        let exif = ExifMetadata(make: "CameraSun", model: "V4L2 Camera", captureDate: Date(timeIntervalSince1970: 1_718_988_127),
                                exposureTime: frame.metadata.exposureDuration, fNumber: 2, iso: Int(frame.metadata.iso), focalLength: 4)
        let dng = try DNGWriter.data(raw: frame.buffer, metadata: DNGMetadata(exif: exif, calibration: calibration,
                                                                             whiteBalanceGains: frame.metadata.whiteBalanceGains))
        try await withScratchDirectory { folder in
            let file = folder.appendingPathComponent("v4l2.dng")
            try dng.write(to: file)
            let (status, report, errors) = try await ExifTool.run(["-validate", "-warning", "-error", "-a", "-s", file.path])
            #expect(status == 0, "\(errors)")
            #expect(report == "Validate                        : OK\n", "\(report)")
            let identify = "/usr/bin/raw-identify"
            try #require(FileManager.default.isExecutableFile(atPath: identify), "\(identify) is missing — run make deps (installs libraw-bin)")
            let (identified, output, problems) = try await runTool(identify, ["-v", file.path])
            #expect(identified == 0, "\(problems)")
            let lines = Set(String(decoding: output, as: UTF8.self).components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
            let (_, levels, _) = try await ExifTool.run(["-s3", "-BlackLevel", "-WhiteLevel", file.path])
            #expect(levels == "0\n\((1 << bits) - 1)\n")
            for line in ["Image size:   640 x 480", "Filter pattern: \(String(repeating: order, count: 4))", "Camera: CameraSun V4L2 Camera ID: 0x0",
                         "DNG Illuminant 1: D65"] {
                #expect(lines.contains(line), "raw-identify -v printed no \"\(line)\":\n\(lines.sorted())")
            }
        }
    }

    @Test("a camera offering only a packed Bayer format (pRAA) is refused, saying packed MIPI formats are not taken")
    func packedRefused() throws {
        let packed = V4L2FormatDescription(code: FourCC(rawValue: 0x4141_5270), name: "10-bit Bayer RGRG/GBGB Packed")
        #expect(packed.code.description == "pRAA")
        #expect(throws: CaptureError.invalidConfiguration("/dev/video0 (Scripted vivid camera) offers no format CameraSun can take "
                + "(YUYV, NV12, GREY, MJPG, JPEG, RGGB, GRBG, GBRG, BA81, RG10, BA10, GB10, BG10, RG12, BA12, GB12, BG12, RG16, GR16, "
                + "GB16 or BYR2; Bayer unpacked only, not packed MIPI formats such as pRAA) — choose another camera")) {
            try V4L2Camera(path: "/dev/video0", driver: ScriptedV4L2Driver(formats: [packed]))
        }
    }
}
