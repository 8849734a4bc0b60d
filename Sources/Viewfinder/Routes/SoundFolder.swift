import Foundation

/// The folder of sounds that replace the page's synthesised ones (`GET /sounds/NAME`): the user
/// puts `shutter`, `record-start` or `record-stop` there as `.wav`, `.mp3` or `.ogg`.
public struct SoundFolder: Sendable, Equatable {
    /// The sounds the page plays.
    public static let names = ["shutter", "record-start", "record-stop"]
    /// Extensions tried in this order, with the content type each is served as.
    static let types = [("wav", "audio/wav"), ("mp3", "audio/mpeg"), ("ogg", "audio/ogg")]

    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    /// CameraSun's: `$XDG_CONFIG_HOME/camerasun/sounds`, else `~/.config/camerasun/sounds`.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> SoundFolder {
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0, isDirectory: true) : nil }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config", isDirectory: true)
        return SoundFolder(directory: config.appendingPathComponent("camerasun/sounds", isDirectory: true))
    }

    /// The user's file for the sound `name`, or nil when there is none (the page then synthesises it).
    func file(named name: String) -> ServedFile? {
        guard Self.names.contains(name) else { return nil }
        return Self.types.lazy.map { (ext, type) in
            ServedFile(url: self.directory.appendingPathComponent("\(name).\(ext)"), contentType: type)
        }.first { FileManager.default.isReadableFile(atPath: $0.url.path) }
    }
}
