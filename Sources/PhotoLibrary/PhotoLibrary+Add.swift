import CameraSystem
import Foundation

extension PhotoLibrary {
    /// Stores `bytes` (Data or [UInt8]) as a new photo and returns its catalogue entry; with `raw`,
    /// a DNG of the same shot, the two as one asset (a RAW + JPEG pair: `ID.jpg` and `ID.dng`, one
    /// row). (A movie is recorded in place and catalogued by `addMovie`.)
    ///
    /// In order: the arguments and the free space are checked (nothing is written when they fail),
    /// each file is written under a temporary name in its dated folder, flushed and renamed into
    /// place, the folder is flushed, and then the row is committed. If the DNG or the row fails,
    /// the files already in place are removed again, so a refused photo is nowhere in the library
    /// (both files land or neither) and the caller, who still holds the bytes, can keep them
    /// elsewhere without making a second copy. (Should that removal fail too, the error says where
    /// the file is, and `repair()` catalogues it.)
    ///
    /// - Parameters:
    ///   - fileExtension: 1–8 lowercase letters or digits, e.g. `jpg`.
    ///   - raw: the DNG of a RAW + JPEG pair, stored as the photo's companion.
    ///   - createdAt: when the photo was taken; kept to the millisecond; it picks the dated folder.
    ///   - meteringStatistics: a JSON text, stored as it is.
    public func add(
        _ bytes: some ContiguousBytes, fileExtension: String = "jpg", raw: Data? = nil,
        createdAt: Date = Date(), width: Int, height: Int, exposure: Asset.Exposure? = nil,
        meteringStatistics: String? = nil
    ) throws(PhotoLibraryError) -> Asset {
        try Self.validate(fileExtension: fileExtension, width: width, height: height, exposure: exposure,
                          meteringStatistics: meteringStatistics)
        let (byteCount, sha256) = bytes.withUnsafeBytes { ($0.count, SHA256.hash($0).hexadecimal) }
        try checkCapacity(forBytes: byteCount + (raw?.count ?? 0))

        let created = Date(millisecondsSince1970: createdAt.millisecondsSince1970)
        let folder = layout.folder(for: created)
        let id = layout.makeID(for: created)
        let rawFile = raw.map { raw in
            Asset.Raw(path: "\(folder)/\(id).\(LibraryLayout.rawExtension)", byteCount: raw.count,
                      sha256: raw.withUnsafeBytes { SHA256.hash($0).hexadecimal })
        }
        let asset = Asset(id: id, kind: .photo, path: "\(folder)/\(id).\(fileExtension)", createdAt: created, width: width,
                          height: height, byteCount: byteCount, exposure: exposure,
                          meteringStatistics: meteringStatistics, sha256: sha256, state: .ok, raw: rawFile)
        let photo = try publish(bytes, at: asset.path)
        var published = [asset.path]
        var rawPending: PendingFile?
        do {
            if let raw, let rawFile {
                rawPending = try publish(raw, at: rawFile.path)
                published.append(rawFile.path)
            }
            try withCatalog { catalog throws(SQLiteError) in try catalog.insert(asset) }
        } catch {
            let what = published.count == 1 && raw != nil ? "its DNG could not be written" : "its catalogue row could not be committed"
            throw removeAgain(published, after: error, because: what)
        }
        // The files stay locked until their row is committed, so `verify` never takes them for orphans.
        withExtendedLifetime((photo, rawPending)) {}
        return asset
    }

    /// Writes `bytes` under a temporary name beside the relative `path`, flushes and renames it to
    /// `path`, and returns it still locked.
    private func publish(_ bytes: some ContiguousBytes, at path: String) throws(PhotoLibraryError) -> PendingFile {
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        return try PhotoLibraryError.catching { () throws(SystemCallError) -> PendingFile in
            try FileOperations.createDirectories(folder, under: directory.path)
            let pending = try PendingFile(temporaryPath: "\(absolutePath(folder))/\(LibraryLayout.temporaryName(for: name))",
                                          finalPath: absolutePath(path))
            try bytes.withUnsafeBytes { buffer in Result { () throws(SystemCallError) in try pending.publish(buffer) } }.get()
            return pending
        }
    }

    /// `error` explained, after removing the `published` files of a photo that was not saved
    /// because of `reason`.
    private func removeAgain(_ published: [String], after error: PhotoLibraryError,
                             because reason: String) -> PhotoLibraryError {
        for path in published {
            do {
                try FileOperations.remove(absolutePath(path))
            } catch let removal {
                return error.explained("the photo was saved as \(absolutePath(path)) but not catalogued (\(reason)), and it "
                    + "could not be removed again (\(removal))")
            }
        }
        let files = published.map(absolutePath).joined(separator: " and ")
        let were = published.count == 1 ? "its file \(files) was" : "its files \(files) were"
        return error.explained("the photo was not saved: \(reason), so \(were) removed again")
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
