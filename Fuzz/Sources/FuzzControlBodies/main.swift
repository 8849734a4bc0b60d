import Foundation
import FuzzDriver
import HTTPServer
import Viewfinder

runLibFuzzer(fuzzControlBodies)

/// One libFuzzer input: decodes arbitrary bytes as the JSON body of every `/api/*` control
/// request, as the routes do (`HTTPRequest.decodeJSON`). A 400 naming the problem is the expected
/// answer to bad bodies; a crash, a sanitizer report or any other status is a finding.
func fuzzControlBodies(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let request = HTTPRequest(
        method: .post, path: "/api/control", headers: ["Content-Type": "application/json"],
        body: Data(UnsafeBufferPointer(start: data, count: size)))
    decode(ExposureCommand.self, request)
    if case .viewTap(_, _, let width, let height, _) = decode(MeterCommand.self, request) {
        precondition(width > 0 && height > 0, "a view tap in a \(width)×\(height) view")
    }
    decode(LockCommand.self, request)
    decode(ZoomCommand.self, request)
    decode(MeteringCommand.self, request)
    decode(PhotoCommand.self, request)
    return 0
}

/// The body as `T`, or nil after checking that the refusal is a 400 with a message.
@discardableResult
private func decode<T: Decodable>(_ type: T.Type, _ request: HTTPRequest) -> T? {
    do {
        return try request.decodeJSON(type)
    } catch {
        precondition(error.status == .badRequest && !error.message.isEmpty, "\(T.self): refused with \(error)")
        return nil
    }
}
