import Foundation

/// A file a route serves (a library asset, a thumbnail, a sound): where it is and what it holds.
public struct ServedFile: Sendable, Equatable {
    public let url: URL
    /// e.g. `image/jpeg`, `video/mp4`, `audio/wav`.
    public let contentType: String

    public init(url: URL, contentType: String) {
        self.url = url
        self.contentType = contentType
    }
}
