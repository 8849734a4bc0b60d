extension Asset {
    /// The raw file of a RAW + JPEG pair: the DNG stored beside the photo (`YYYY/MM/DD/ID.dng`),
    /// one asset with it. Encodes as `{"path","byteCount","sha256"}`.
    public struct Raw: Sendable, Hashable, Codable {
        /// The DNG's path relative to the library directory.
        public let path: String
        /// The DNG's size in bytes.
        public let byteCount: Int
        /// SHA-256 of the DNG's bytes, lowercase hexadecimal.
        public let sha256: String

        init(path: String, byteCount: Int, sha256: String) {
            self.path = path
            self.byteCount = byteCount
            self.sha256 = sha256
        }
    }
}
