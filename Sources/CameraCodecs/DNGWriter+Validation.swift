import CameraCore

/// The checks a DNG's inputs must pass before libtiff sees them.
extension DNGWriter {
    /// Throws unless `raw` is a Bayer mosaic, `metadata` fits it and DNG, and `preview` is bgra8;
    /// returns the mosaic's CFAPattern (0 red, 1 green, 2 blue, row by row over the 2×2 tile).
    static func validate(raw: PixelBuffer, metadata: DNGMetadata, preview: PixelBuffer?) throws(CodecError) -> [UInt8] {
        guard case .bayer16(let pattern, let bits) = raw.format else {
            throw CodecError(.unsupported, "a DNG holds a raw Bayer mosaic, not a \(raw.format) buffer"
                + " — pass the camera's raw frame (bayer16), or save this one as a JPEG")
        }
        let calibration = metadata.calibration, largest = (1 << bits) - 1
        guard calibration.whiteLevel <= largest else {
            throw CodecError(.invalidSetting, "the white level \(calibration.whiteLevel) does not fit the frame's \(bits)"
                + " significant bits (at most \(largest)) — pass the calibration the camera reported with this frame")
        }
        if let preview, preview.format != .bgra8 {
            throw CodecError(.unsupported, "a DNG preview is made from a bgra8 buffer, not \(preview.format)"
                + " — render the preview as bgra8, or leave it out")
        }
        guard !metadata.exif.make.isEmpty, !metadata.exif.model.isEmpty else {
            throw CodecError(.invalidSetting, "the camera make \"\(metadata.exif.make)\" and model \"\(metadata.exif.model)\" must not be"
                + " empty: a DNG names its camera (UniqueCameraModel) — pass the camera's maker and model")
        }
        guard metadata.exif.exposureTime.isNumeric else {
            throw CodecError(.invalidSetting, "the DNG exposure time must be a number of seconds, not"
                + " \(metadata.exif.exposureTime.kind) — pass the frame's exposure duration")
        }
        try check("DNG exposure time", metadata.exif.exposureTime.seconds, 1e-6...86_400, unit: "s")
        try check("DNG f-number", metadata.exif.fNumber, 0.5...1000)
        try check("DNG ISO speed", Double(metadata.exif.iso), 1...10_000_000)
        try check("DNG focal length", metadata.exif.focalLength, 0.1...100_000, unit: "mm")
        switch pattern {
        case .rggb: return [0, 1, 1, 2]
        case .grbg: return [1, 0, 2, 1]
        case .gbrg: return [1, 2, 0, 1]
        case .bggr: return [2, 1, 1, 0]
        }
    }

    private static func check(_ setting: String, _ value: Double, _ range: ClosedRange<Double>, unit: String = "") throws(CodecError) {
        guard value.isFinite, range.contains(value) else { throw .outOfRange(setting, value, range, unit: unit) }
    }
}
