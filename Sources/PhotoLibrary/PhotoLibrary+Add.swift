import CameraSystem
import Foundation

extension PhotoLibrary {
    /// Stores `bytes` (Data or [UInt8]) as a new photo and returns its catalogue entry. (A movie
    /// is recorded in place and catalogued by `addMovie`.)
    ///
    /// In order: the arguments and the free space are checked (nothing is written when they fail),
    /// the file is written under a temporary name in its dated folder, flushed and renamed into
    /// place, the folder is flushed, and then the row is committed. If the row cannot be committed
    /// the file is removed again, so a refused photo is nowhere in the library and the caller, who
    /// still holds the bytes, can keep them elsewhere without making a second copy. (Should that
    /// removal fail too, the error says where the file is, and `repair()` catalogues it.)
    ///
    /// - Parameters:
    ///   - fileExtension: 1–8 lowercase letters or digits, e.g. `jpg`.
    ///   - createdAt: when the photo was taken; kept to the millisecond; it picks the dated folder.
    ///   - meteringStatistics: a JSON text, stored as it is.
    public func add(
        _ bytes: some ContiguousBytes, fileExtension: String = "jpg",
        createdAt: Date = Date(), width: Int, height: Int, exposure: Asset.Exposure? = nil,
        meteringStatistics: String? = nil
    ) throws(PhotoLibraryError) -> Asset {
        try Self.validate(fileExtension: fileExtension, width: width, height: height, exposure: exposure,
                          meteringStatistics: meteringStatistics)
        let (byteCount, sha256) = bytes.withUnsafeBytes { ($0.count, SHA256.hash($0).hexadecimal) }
        try checkCapacity(forBytes: byteCount)

        let created = Date(millisecondsSince1970: createdAt.millisecondsSince1970)
        let folder = layout.folder(for: created)
        let id = layout.makeID(for: created)
        let name = "\(id).\(fileExtension)"
        let asset = Asset(id: id, kind: .photo, path: "\(folder)/\(name)", createdAt: created, width: width,
                          height: height, byteCount: byteCount, exposure: exposure,
                          meteringStatistics: meteringStatistics, sha256: sha256, state: .ok)
        let finalPath = absolutePath(asset.path)
        let pending = try PhotoLibraryError.catching { () throws(SystemCallError) -> PendingFile in
            try FileOperations.createDirectories(folder, under: directory.path)
            let pending = try PendingFile(temporaryPath: "\(absolutePath(folder))/\(LibraryLayout.temporaryName(for: name))",
                                          finalPath: finalPath)
            try bytes.withUnsafeBytes { buffer in Result { () throws(SystemCallError) in try pending.publish(buffer) } }.get()
            return pending
        }
        do {
            try withCatalog { catalog throws(SQLiteError) in try catalog.insert(asset) }
        } catch {
            do {
                try FileOperations.remove(finalPath)
            } catch let removal {
                throw error.explained("the photo was saved as \(finalPath) but not catalogued, and it could not be "
                    + "removed again (\(removal))")
            }
            throw error.explained("the photo was not saved: its catalogue row could not be committed, so its file "
                + "\(finalPath) was removed again")
        }
        // The file stays locked until its row is committed, so `verify` never takes it for an orphan.
        withExtendedLifetime(pending) {}
        return asset
    }

    /// Throws `.invalidArgument` naming the first argument `add` cannot store.
    private static func validate(fileExtension: String, width: Int, height: Int, exposure: Asset.Exposure?,
                                 meteringStatistics: String?) throws(PhotoLibraryError) {
        guard (1...8).contains(fileExtension.count),
              fileExtension.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber) }) else {
            throw PhotoLibraryError(.invalidArgument, "file extension \"\(fileExtension)\" is not 1–8 lowercase "
                + "letters or digits — pass one such as \"jpg\"")
        }
        guard width > 0, height > 0 else {
            throw PhotoLibraryError(.invalidArgument, "dimensions \(width)×\(height) are not positive — "
                + "pass the image's width and height in pixels")
        }
        if let exposure, ![exposure.exposureTime, exposure.iso, exposure.evBias].allSatisfy(\.isFinite) {
            throw PhotoLibraryError(.invalidArgument, "exposure time \(exposure.exposureTime), ISO \(exposure.iso) "
                + "and EV bias \(exposure.evBias) must all be finite numbers — pass the values the frame was taken with")
        }
        if let meteringStatistics,
           (try? JSONSerialization.jsonObject(with: Data(meteringStatistics.utf8), options: .fragmentsAllowed)) == nil {
            throw PhotoLibraryError(.invalidArgument, "the metering statistics are not valid JSON: "
                + "\"\(meteringStatistics.prefix(80))\" — pass a JSON text such as {\"mean\":0.18}")
        }
    }
}
