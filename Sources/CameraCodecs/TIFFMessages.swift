import Foundation

/// What libtiff reported while writing one file: library code never prints, so libtiff's errors
/// and warnings are kept here and put into the `CodecError` that the failure throws.
final class TIFFMessages {
    enum Severity: String {
        case error, warning
    }

    private(set) var lines: [String] = []
    /// Whether any of them is an error (the rest are warnings).
    private(set) var hasErrors = false

    /// The messages as one clause, or a note that libtiff gave none.
    var summary: String {
        lines.isEmpty ? "libtiff gave no reason" : lines.joined(separator: "; ")
    }

    /// libtiff's handler: formats the message into the `TIFFMessages` at `log` and returns 1, which
    /// tells libtiff not to pass it on to its default handler (standard error).
    static func record(_ severity: Severity, log: UnsafeMutableRawPointer?, module: UnsafePointer<CChar>?,
                       format: UnsafePointer<CChar>?, arguments: CVaListPointer?) -> Int32 {
        guard let log, let format, let arguments else { return 1 }
        var text = [CChar](repeating: 0, count: 1024)
        _ = vsnprintf(&text, text.count, format, arguments)
        let message = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let source = module.map { String(cString: $0) + ": " } ?? ""
        let messages = Unmanaged<TIFFMessages>.fromOpaque(log).takeUnretainedValue()
        messages.lines.append("libtiff \(severity.rawValue): \(source)\(message)")
        messages.hasErrors = messages.hasErrors || severity == .error
        return 1
    }
}
