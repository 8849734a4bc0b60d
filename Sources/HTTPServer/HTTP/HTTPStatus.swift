/// An HTTP status code. The server adds the standard reason phrase when it sends the response.
public struct HTTPStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int

    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    public static let ok = HTTPStatus(rawValue: 200)
    public static let partialContent = HTTPStatus(rawValue: 206)
    public static let badRequest = HTTPStatus(rawValue: 400)
    public static let unauthorized = HTTPStatus(rawValue: 401)
    public static let forbidden = HTTPStatus(rawValue: 403)
    public static let notFound = HTTPStatus(rawValue: 404)
    public static let methodNotAllowed = HTTPStatus(rawValue: 405)
    public static let conflict = HTTPStatus(rawValue: 409)
    public static let payloadTooLarge = HTTPStatus(rawValue: 413)
    public static let unsupportedMediaType = HTTPStatus(rawValue: 415)
    public static let rangeNotSatisfiable = HTTPStatus(rawValue: 416)
    public static let internalServerError = HTTPStatus(rawValue: 500)
    public static let insufficientStorage = HTTPStatus(rawValue: 507)

    public var description: String { String(rawValue) }
}
