import CameraCore

/// Why an image could not be read, decoded, encoded or written. The description says what failed,
/// with the offending value, and what to do about it.
public struct CodecError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The broad kind of failure, for callers that react differently to each.
    public enum Kind: Sendable, Hashable {
        /// The file could not be read.
        case unreadable
        /// The bytes are not in the expected format at all (wrong magic, empty).
        case wrongFormat
        /// The format is recognised but uses a variant this codec does not handle.
        case unsupported
        /// The header or the pixel data is inconsistent.
        case malformed
        /// The data ends before the image does.
        case truncated
        /// The image is larger than the codec accepts.
        case tooLarge
        /// The encoder failed (out of memory).
        case encodingFailed
        /// The output file could not be written.
        case unwritable
        /// A setting or metadata value is outside what the format can hold (a JPEG quality of 0,
        /// a latitude of 91°).
        case invalidSetting
    }

    public let kind: Kind
    public let description: String

    init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }

    /// An `invalidSetting` error naming `setting`, its value and the range it must lie in.
    static func outOfRange(_ setting: String, _ value: Double, _ range: ClosedRange<Double>, unit: String = "") -> CodecError {
        CodecError(.invalidSetting, ValueOutOfRangeError(setting: setting, value: value, range: range, unit: unit).description)
    }
}
