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
}
