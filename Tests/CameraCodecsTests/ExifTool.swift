import Foundation

/// Reads a file's metadata with the real exiftool (`exiftool -j -n`: JSON, numbers unformatted),
/// the independent reader the EXIF tests check against.
enum ExifTool {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static let path = "/usr/bin/exiftool"

    /// The tags exiftool reads from `bytes`, by exiftool's tag name.
    static func read(_ bytes: [UInt8]) throws -> [String: Any] {
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw Failure(description: "\(path) is missing — run make deps (installs libimage-exiftool-perl)")
        }
        return try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("photo.jpg")
            try Data(bytes).write(to: url)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = ["-j", "-n", url.path]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let json = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0,
                  let files = try JSONSerialization.jsonObject(with: json) as? [[String: Any]], let tags = files.first else {
                throw Failure(description: "exiftool could not read the JPEG (status \(process.terminationStatus)):"
                    + " \(String(decoding: json, as: UTF8.self))")
            }
            return tags
        }
    }
}
