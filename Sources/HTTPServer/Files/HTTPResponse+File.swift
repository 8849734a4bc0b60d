import Foundation

extension HTTPResponse {
    /// The file at `url` as `contentType`, or the part of it that `range` (the request's `Range`
    /// field) asks for: 200 with the whole file, or 206 with `Content-Range`; both say
    /// `Accept-Ranges: bytes`. A range past the end is a 416; a file that cannot be opened a 404.
    public static func file(at url: URL, contentType: String, range: String?) throws(HTTPError) -> HTTPResponse {
        let handle: FileHandle, size: Int64
        do {
            handle = try FileHandle(forReadingFrom: url)
            size = Int64(try handle.seekToEnd())
        } catch {
            throw .notFound("\(url.lastPathComponent) cannot be read (\(error.localizedDescription))")
        }
        var headers: HTTPHeaders = ["Content-Type": contentType, "Accept-Ranges": "bytes"]
        let requested: ByteRange?
        do {
            requested = try ByteRange.requested(by: range, size: size)
        } catch {
            try? handle.close()
            throw error
        }
        if let requested {
            headers["Content-Range"] = "bytes \(requested.offset)-\(requested.offset + requested.length - 1)/\(size)"
        }
        return HTTPResponse(status: requested == nil ? .ok : .partialContent, headers: headers,
                            body: .file(FileSlice(handle: handle, range: requested ?? ByteRange(offset: 0, length: size))))
    }
}
