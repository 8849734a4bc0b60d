import CameraCodecs
import CameraCore
import CameraTestSupport
import Foundation
import Testing

/// DNGs from `DNGWriter` read by LibRaw's own tools (Debian libraw-bin): raw-identify and dcraw_emu.
@Suite struct DNGLibRawTests {
    /// `tool` (in /usr/bin) run with `arguments`: its output, after checking that it succeeded.
    func run(_ tool: String, _ arguments: [String]) async throws -> String {
        let path = "/usr/bin/\(tool)"
        try #require(FileManager.default.isExecutableFile(atPath: path), "\(path) is missing — run make deps (installs libraw-bin)")
        let (status, output, errors) = try await runTool(path, arguments)
        try #require(status == 0, "\(tool) \(arguments.joined(separator: " ")) failed (status \(status)): \(errors)")
        return String(decoding: output, as: UTF8.self)
    }

    /// The rows of the 3×3 matrix printed under `heading` by raw-identify -v.
    func matrix(after heading: String, in report: String) -> [Double] {
        let lines = report.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: heading) else { return [] }
        return lines[(start + 1)...].prefix(3).flatMap { $0.split(separator: "\t").compactMap { Double($0) } }
    }

    @Test("raw-identify -v reads the size, the RGGB filters, the levels, the exposure and the preview")
    func identify() async throws {
        let dng = try DNGWriter.data(raw: DNGSamples.allValues(), metadata: DNGSamples.metadata(),
                                     preview: Frames.gradient(.bgra8, width: 128, height: 96))
        let report = try await withScratchDirectory { folder in try await run("raw-identify", ["-v", DNGSamples.file(dng, in: folder).path]) }
        let lines = Set(report.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        for line in ["DNG Version: 1.4.0.0", "Camera: CameraSun Simulated Camera ID: 0x0", "Image size:   256 x 192",
                     "Filter pattern: RGGBRGGBRGGBRGGB", "black: 256", "Raw colors: 3", "Thumb size:   128 x 96", "Image flip: 6",
                     "ISO speed: 400", "Shutter: 1/250.0", "Aperture: f/2.8", "DNG Illuminant 1: D65"] {
            #expect(lines.contains(line), "raw-identify -v printed no \"\(line)\":\n\(report)")
        }
    }

    @Test("LibRaw turns ColorMatrix1 back into the calibration's camera → sRGB matrix and the gains as its D65 white balance")
    func colourRoundTrip() async throws {
        let dng = try DNGWriter.data(raw: DNGSamples.allValues(), metadata: DNGSamples.metadata())
        let report = try await withScratchDirectory { folder in try await run("raw-identify", ["-v", DNGSamples.file(dng, in: folder).path]) }
        let cameraToSRGB = matrix(after: "camRGB -> sRGB Matrix:", in: report)
        #expect(cameraToSRGB.count == 9 && zip(cameraToSRGB, DNGSamples.calibration.colorMatrix).allSatisfy { abs($0 - $1) < 1e-4 },
                "\(report)")
        #expect(report.contains("Derived D65 multipliers: 1.900000 1.000000 1.600000"), "\(report)")
    }

    @Test("dcraw_emu develops the DNG into a PPM of the mosaic's size, turned upright")
    func develop() async throws {
        let dng = try DNGWriter.data(raw: DNGSamples.greyCard(), metadata: DNGSamples.metadata())
        let ppm = try await withScratchDirectory { folder in
            let file = try DNGSamples.file(dng, in: folder)
            _ = try await run("dcraw_emu", ["-w", file.path])
            return try Data(contentsOf: URL(fileURLWithPath: file.path + ".ppm"))
        }
        let header = "P6\n192 256\n255\n"
        try #require(ppm.count == header.utf8.count + 192 * 256 * 3, "\(ppm.count) bytes")
        #expect(String(decoding: ppm.prefix(header.utf8.count), as: UTF8.self) == header)
        let centre = ((256 / 2) * 192 + 192 / 2) * 3 + header.utf8.count
        let (red, green, blue) = (Double(ppm[centre]), Double(ppm[centre + 1]), Double(ppm[centre + 2]))
        #expect(green > 50 && abs(red / green - 1) < 0.03 && abs(blue / green - 1) < 0.03, "centre pixel \(red), \(green), \(blue)")
    }
}
