import CameraSystem

/// The files found in a library's dated folders, as paths relative to the library.
struct DatedFolderScan {
    /// Complete photo and movie files (not hidden; not a pair's DNG).
    var files: [String] = []
    /// Temporary files of writes in progress or interrupted.
    var temporaries: [String] = []
    /// Takes being recorded, or left unfinished (`ID.mp4.partial`).
    var partialRecordings: [String] = []
    /// Movie thumbnails (`ID.thumb.jpg`).
    var thumbnails: [String] = []
    /// RAW + JPEG pairs' DNGs (`ID.dng`).
    var raws: [String] = []

    /// Files the regular file `name` in the relative `folder` under its role; other hidden files are ignored.
    mutating func add(_ name: String, in folder: String) {
        let path = "\(folder)/\(name)"
        if LibraryLayout.isTemporary(name) {
            temporaries.append(path)
        } else if name.hasPrefix(".") {
            return
        } else if LibraryLayout.isPartialRecording(name) {
            partialRecordings.append(path)
        } else if LibraryLayout.isThumbnail(name) {
            thumbnails.append(path)
        } else if LibraryLayout.isRaw(name) {
            raws.append(path)
        } else {
            files.append(path)
        }
    }
}

/// Who holds a file that had no catalogue row when the rows were read.
enum FileOwnership {
    /// No process holds it and it still has no row: it was left behind. The lock keeps writers
    /// and other repairs off it while it is held.
    case abandoned(FileLock)
    /// A live writer holds it.
    case busy
    /// Its writer committed its row meanwhile.
    case catalogued
    /// It disappeared since the folder was listed.
    case gone
    /// It could not be opened or locked, for `reason`.
    case unreadable(String)
}

extension PhotoLibrary {
    /// Lists the regular files in the dated folders `YYYY/MM/DD/`; other entries are ignored.
    func scanDatedFolders() throws(PhotoLibraryError) -> DatedFolderScan {
        var scan = DatedFolderScan()
        do {
            for year in try datedFolders(in: "", digits: 4) {
                for month in try datedFolders(in: year, digits: 2) {
                    for day in try datedFolders(in: "\(year)/\(month)", digits: 2) {
                        let folder = "\(year)/\(month)/\(day)"
                        for name in try FileSystem.entries(of: absolutePath(folder))
                        where try FileOperations.entryKind(absolutePath("\(folder)/\(name)")) == .regularFile {
                            scan.add(name, in: folder)
                        }
                    }
                }
            }
        } catch {
            throw PhotoLibraryError(error)
        }
        return scan
    }

    /// Finds out who holds the file at the relative `path`, which no catalogue row named: it is
    /// locked without waiting, then the catalogue is asked again, under the lock, for a row that
    /// names it (as its file or as its movie's thumbnail).
    func ownership(of path: String) throws(PhotoLibraryError) -> FileOwnership {
        let attempt: FileLock.Attempt
        do {
            attempt = try FileLock.tryLock(absolutePath(path))
        } catch {
            return .unreadable("cannot \(error.operation) it: \(error.reason)")
        }
        switch attempt {
        case .busy: return .busy
        case .vanished: return .gone
        case .acquired(let lock):
            let isNamed = try withCatalog { catalog throws(SQLiteError) in try catalog.references(path: path) }
            return isNamed ? .catalogued : .abandoned(lock)
        }
    }

    /// The sub-folders of the relative `folder` whose names are `digits` decimal digits.
    private func datedFolders(in folder: String, digits: Int) throws(SystemCallError) -> [String] {
        let path = folder.isEmpty ? directory.path : absolutePath(folder)
        var folders: [String] = []
        for name in try FileSystem.entries(of: path)
        where name.utf8.count == digits && name.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
            if try FileOperations.entryKind("\(path)/\(name)") == .directory { folders.append(name) }
        }
        return folders
    }
}
