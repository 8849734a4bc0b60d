import Foundation

extension HTTPRequest {
    /// The body decoded as `T`. Malformed JSON, a missing or mistyped field, or an empty body is a
    /// 400 `HTTPError` whose message names the problem and where it is (e.g. `bias: expected a number`);
    /// a body not sent as `Content-Type: application/json` is a 415 (a page on another site cannot
    /// send that type without the browser asking the server first).
    public func decodeJSON<T: Decodable>(_ type: T.Type = T.self) throws(HTTPError) -> T {
        guard !body.isEmpty else {
            throw .badRequest("the request body is empty — send a JSON object")
        }
        let mediaType = header("content-type").map { $0.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces) }
        guard mediaType?.lowercased() == "application/json" else {
            let sent = mediaType.map { "is \($0), not application/json" } ?? "has no Content-Type"
            throw HTTPError(.unsupportedMediaType, "the request body \(sent) — send the JSON with Content-Type: application/json")
        }
        do {
            _ = try JSONSerialization.jsonObject(with: body, options: .fragmentsAllowed)
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            throw .badRequest("the request body is not valid JSON (\(detail)) — send a JSON object")
        }
        do {
            return try JSONDecoder().decode(T.self, from: body)
        } catch let error as DecodingError {
            throw .badRequest(Self.describe(error))
        } catch {
            throw .badRequest("the request body does not match the expected JSON: \(error)")
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .dataCorrupted(let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])): missing — add it to the JSON object"
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)): expected \(name(of: type))"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)): expected \(name(of: type)), found null"
        @unknown default:
            return "the request body does not match the expected JSON: \(error)"
        }
    }

    private static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.isEmpty ? "the request body" : codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }

    private static func name(of type: Any.Type) -> String {
        switch type {
        case is Double.Type, is Float.Type, is Int.Type: "a number"
        case is Bool.Type: "true or false"
        case is String.Type: "a string"
        case is [String: Any].Type: "a JSON object"
        case is [Any].Type: "a JSON array"
        default: "\(type)"
        }
    }
}
