import CameraCore

extension Rotation {
    /// The EXIF/TIFF Orientation of an image that must be turned this far clockwise to stand
    /// upright (1, 6, 3, 8).
    var exifOrientation: UInt16 {
        switch self {
        case .degrees0: 1
        case .degrees90: 6
        case .degrees180: 3
        case .degrees270: 8
        }
    }
}
