import FuzzDriver
import HTTPServer

runLibFuzzer(fuzzRequestTarget)

/// One libFuzzer input: parses arbitrary bytes as an HTTP request-target. A 400 `HTTPError` is
/// the expected answer to bad ones; a target that parses must have an absolute path without `.` or
/// `..` segments, NUL or backslash byte, and no NUL in its query, whatever the encoding.
func fuzzRequestTarget(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    // The server hands over the target as a C string: it ends at the first NUL.
    let raw = String(decoding: UnsafeBufferPointer(start: data, count: size).prefix { $0 != 0 }, as: UTF8.self)
    let target: RequestTarget
    do {
        target = try RequestTarget(raw)
    } catch {
        precondition(error.status == .badRequest && !error.message.isEmpty, "refused \(raw.debugDescription) with \(error)")
        return 0
    }
    // Judged on the bytes, as a file system or a proxy sees them: a Character may join "/" or "\\"
    // with a combining mark that follows it (U+0323 after "/" is one Character, not "/").
    let path = target.path.utf8
    precondition(path.first == UInt8(ascii: "/"), "path \(target.path.debugDescription) is not absolute")
    precondition(!path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).contains {
        $0.elementsEqual(".".utf8) || $0.elementsEqual("..".utf8)
    }, "path \(target.path.debugDescription) has a . or .. segment")
    precondition(!path.contains(0) && !path.contains(UInt8(ascii: "\\")), "path \(target.path.debugDescription) has NUL or a backslash")
    precondition(!target.query.contains { $0.key.utf8.contains(0) || $0.value.utf8.contains(0) }, "the query has NUL")
    return 0
}
