import CameraCore

/// Why a filter could not be made or applied: what failed, with the value, then " — " and what to do.
public struct FilterError: Error, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }

    /// A frame whose format `filter` cannot transform.
    static func unsupportedFormat(_ format: PixelFormat, filter: String, supported: String) -> FilterError {
        FilterError("\(filter) cannot filter a \(format) frame — render the picture as \(supported) before filtering it")
    }

    /// Throws `unsupportedFormat` unless `format` is bgra8 or nv12 (either range), which the
    /// watermark and the beauty filter both take.
    static func checkBGRAOrNV12(_ format: PixelFormat, filter: String) throws(FilterError) {
        switch format {
        case .bgra8, .nv12: return
        default: throw unsupportedFormat(format, filter: filter, supported: "bgra8 or nv12")
        }
    }
}
