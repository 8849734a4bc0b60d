import PhotoLibrary
import Testing

@Suite struct DefaultDirectoryTests {
    @Test("the default library is $XDG_PICTURES_DIR/CameraSun when that is an absolute path, else ~/Pictures/CameraSun",
          arguments: [
              (["XDG_PICTURES_DIR": "/data/Bilder", "HOME": "/home/ana"], "/data/Bilder/CameraSun"),
              (["HOME": "/home/ana"], "/home/ana/Pictures/CameraSun"),
              (["XDG_PICTURES_DIR": "", "HOME": "/home/ana"], "/home/ana/Pictures/CameraSun"),
              (["XDG_PICTURES_DIR": "Pictures", "HOME": "/home/ana"], "/home/ana/Pictures/CameraSun"),
          ])
    func defaultDirectory(environment: [String: String], expected: String) {
        #expect(PhotoLibrary.defaultDirectory(environment: environment).path == expected)
    }
}
