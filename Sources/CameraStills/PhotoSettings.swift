import CameraCodecs
import CameraCore
import Foundation
import Synchronization

/// What one photo request asks for (AVCapturePhotoSettings): a unique id, the file format, flash,
/// size limit, metadata to embed and whether speed or quality matters more.
///
/// Each request needs its own settings: reusing an id is an error, as in AVFoundation.
public struct PhotoSettings: Sendable, Hashable {
    /// The encoded format. JPEG now; RAW and HEIF will be further cases.
    public enum Format: Sendable, Hashable {
        /// Quality 1…100.
        case jpeg(quality: Int)
    }

    /// Whether the flash fires: `on` always (an error on a camera without a flash), `auto` when
    /// the frame at the request shows a dim scene (`SceneFlags.lowLight`), `off` never. A photo
    /// the flash lights is never zero shutter lag: the flash fires after the request.
    public enum FlashMode: String, Sendable, Hashable, CaseIterable {
        case off, on, auto
    }

    /// How the frame is chosen and processed (AVCapturePhotoOutput.QualityPrioritization).
    public enum QualityPrioritization: String, Sendable, Hashable, CaseIterable {
        /// The frame current at the request, always (zero shutter lag).
        case speed
        /// Zero shutter lag when `zeroShutterLag` is on, else the next frame.
        case balanced
        /// A frame whose exposure has converged: waits (at most `PhotoOutput.convergenceWait`)
        /// while auto-exposure is still searching.
        case quality
    }

    public let uniqueID: UInt64
    public var format: Format
    public var flashMode: FlashMode
    /// The largest size to deliver; the frame is scaled down to fit (nil: the frame's size).
    public var maximumDimensions: PixelSize?
    /// Where the photo was taken (EXIF GPS).
    public var location: GPSLocation?
    /// EXIF Artist.
    public var artist: String?
    /// EXIF UserComment.
    public var comment: String?
    public var qualityPrioritization: QualityPrioritization
    /// Take the frame that was current when the request was made (from the recent-frame ring)
    /// rather than the next one; not when the flash fires.
    public var zeroShutterLag: Bool
    /// EV offsets from auto-exposure's exposure (2…5 of them, e.g. −2, 0, +2) for a bracketed photo:
    /// a frame taken at each, merged into one photo (AVCapturePhotoBracketSettings' idea); nil
    /// takes one frame. Needs a raw stream.
    public var bracket: [Double]?
    /// Also keep the photo's raw mosaic as a DNG beside the JPEG: a RAW + JPEG pair, as
    /// AVCapturePhotoSettings(rawPixelFormatType:processedFormat:) asks for. Needs a raw stream.
    public var raw: Bool
    /// Also keep each frame of the bracket as a photo of its own, rendered at its own exposure
    /// (and with its DNG when `raw`), as AVCapturePhotoBracketSettings delivers them. Needs `bracket`.
    public var keepsBracketFrames = false

    /// Settings with a fresh unique id.
    public init(format: Format = .jpeg(quality: 90), flashMode: FlashMode = .off, maximumDimensions: PixelSize? = nil,
                location: GPSLocation? = nil, artist: String? = nil, comment: String? = nil,
                qualityPrioritization: QualityPrioritization = .balanced, zeroShutterLag: Bool = true, bracket: [Double]? = nil,
                raw: Bool = false) {
        self.init(uniqueID: PhotoSettings.nextID.add(1, ordering: .relaxed).newValue, format: format, flashMode: flashMode,
                  maximumDimensions: maximumDimensions, location: location, artist: artist, comment: comment,
                  qualityPrioritization: qualityPrioritization, zeroShutterLag: zeroShutterLag, bracket: bracket, raw: raw)
    }

    /// Settings with a chosen id (it must not have been used with the same output before).
    public init(uniqueID: UInt64, format: Format = .jpeg(quality: 90), flashMode: FlashMode = .off,
                maximumDimensions: PixelSize? = nil, location: GPSLocation? = nil, artist: String? = nil,
                comment: String? = nil, qualityPrioritization: QualityPrioritization = .balanced, zeroShutterLag: Bool = true,
                bracket: [Double]? = nil, raw: Bool = false) {
        self.uniqueID = uniqueID
        self.bracket = bracket
        self.raw = raw
        self.format = format
        self.flashMode = flashMode
        self.maximumDimensions = maximumDimensions
        self.location = location
        self.artist = artist
        self.comment = comment
        self.qualityPrioritization = qualityPrioritization
        self.zeroShutterLag = zeroShutterLag
    }

    /// Whether the photo needs its frame's raw frame: a single-frame RAW + JPEG photo (a bracket's
    /// DNG is made of the bracket's own raw frames).
    var needsRawFrame: Bool { raw && bracket == nil }

    /// The number of frames a bracket may have.
    public static let bracketFrameCounts = 2...5

    /// The EV offsets a bracket may ask for: wider than a camera's whole span of exposure times and
    /// gains (1/100 000 s to 60 s at gain 1 to 256 is 30.5 EV), so the camera's own check decides,
    /// with figures a person can read.
    public static let bracketOffsets = -32.0...32.0

    /// Checks a bracket's offsets as a request does before the camera is asked: 2…5 different
    /// EV offsets within `bracketOffsets` (whether the camera reaches them is known only from its exposure then).
    public static func checkBracket(_ offsets: [Double]) throws(PhotoCaptureError) {
        let counts = bracketFrameCounts
        guard counts.contains(offsets.count) else {
            throw .unsupported("a bracket of \(offsets.count) frame\(offsets.count == 1 ? "" : "s") — give \(counts.lowerBound) to "
                + "\(counts.upperBound) EV offsets, e.g. -2,0,2")
        }
        guard offsets.allSatisfy({ bracketOffsets.contains($0) }), Set(offsets).count == offsets.count else {
            throw .unsupported("bracket offsets \(offsets.map { String(format: "%g", $0) }.joined(separator: ",")) — give different EV offsets "
                + "within \(Int(bracketOffsets.lowerBound))…+\(Int(bracketOffsets.upperBound)), e.g. -2,0,2")
        }
    }

    private static let nextID = Atomic<UInt64>(0)
}
