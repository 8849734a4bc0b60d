import CameraCore
@testable import CameraEvaluation
import Foundation
import Testing

/// `ae-eval --views`: the list of HDR views, subjects, intents and reasons.
@Suite struct EvaluationViewTests {
    /// A scene directory holding an (empty) city.hdr.
    func sceneDirectory() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("views-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: directory + "/city.hdr", contents: Data()))
        return directory
    }

    @Test("A list reads its views, skips comments and blank lines, and resolves files in the scene directory")
    func parses() throws {
        let directory = try sceneDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let text = """
        # FILE  SUBJECT  INTENT  WHY

        city.hdr,yaw=90,fov=60\t0.5,0.1,0.5,0.4   0.7   The office block,  across the car park.
        \(directory)/city.hdr  0,0.5,1,0.5 -1 Grass.
        """
        let views = try EvaluationView.parse(text, path: "v.txt", sceneDirectory: directory)
        #expect(views == [
            EvaluationView(spec: directory + "/city.hdr,yaw=90,fov=60", subject: NormalizedRect(x: 0.5, y: 0.1, width: 0.5, height: 0.4),
                           intent: 0.7, why: "The office block,  across the car park.", place: "v.txt line 3"),
            EvaluationView(spec: directory + "/city.hdr", subject: NormalizedRect(x: 0, y: 0.5, width: 1, height: 0.5), intent: -1, why: "Grass.", place: "v.txt line 4"),
        ])
    }

    @Test("A file named with a folder is read relative to the list's own folder, as eval/real-scenes.txt names eval/scenes/")
    func listRelative() throws {
        let directory = try sceneDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/scenes", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: directory + "/scenes/Garden.hdr", contents: Data()))
        let views = try EvaluationView.parse("scenes/Garden.hdr,fov=60 0,0,1,1 0 The garden.", path: directory + "/real.txt",
                                             sceneDirectory: "/nowhere")
        #expect(views.map(\.spec) == [directory + "/scenes/Garden.hdr,fov=60"])
        let error = try #require(evaluationError {
            try EvaluationView.parse("scenes/Fog.hdr 0,0,1,1 0 Fog.", path: directory + "/real.txt", sceneDirectory: "/nowhere")
        })
        #expect(error.message.contains("scenes/Fog.hdr does not exist — a path with a folder is read relative to the list's own folder"), "\(error.message)")
    }

    @Test("The repository's real-scenes list reads: every photograph it names is in eval/scenes")
    func realScenesList() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let views = try EvaluationView.load(root.path + "/eval/real-scenes.txt", sceneDirectory: "/nowhere")
        #expect(views.count == 13)
        #expect(Set(views.map { String($0.spec.prefix { $0 != "," }).components(separatedBy: "/").last ?? "" }).count == 7)
    }

    @Test("A bad line is an error naming the file, the line, the value and what to write", arguments: [
        ("city.hdr 0,0,1,1 0", ["v.txt line 2", "3 of its 4 fields", "FILE[,yaw=,pitch=,fov=] x,y,w,h INTENT WHY"]),
        ("city.hdr 0,0,1.2,1 0 Why.", ["v.txt line 2", "'0,0,1.2,1'", "x,y,w,h"]),
        ("city.hdr 0,0,1,1 bright Why.", ["v.txt line 2", "'bright'", "EV from mid-grey"]),
        ("forest.hdr 0,0,1,1 0 Why.", ["v.txt line 2", "forest.hdr does not exist", "make scenes"]),
        ("# only a comment", ["v.txt lists no views"]),
    ])
    func rejects(line: String, phrases: [String]) throws {
        let directory = try sceneDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let error = try #require(evaluationError { try EvaluationView.parse("# header\n" + line, path: "v.txt", sceneDirectory: directory) })
        for phrase in phrases { #expect(error.message.contains(phrase), "\(error.message)") }
    }

    @Test("A view whose scene cannot be made is an invalid input naming the list, the line and the value", arguments: [
        ("city.hdr,yaw=east 0,0,1,1 0 Why.",
         "v.txt line 2: 'yaw=east' in sim:hdr= is not KEY=NUMBER — use yaw=DEG, pitch=DEG, fov=DEG, pan=DEG or median=CD"),
        ("city.hdr 0,0,1,1 3 Why.", "v.txt line 2: intent 3 EV is outside the supported range -8…2.4 EV — choose a value in that range"),
    ])
    func sceneErrors(line: String, message: String) throws {
        let directory = try sceneDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let views = try EvaluationView.parse("# header\n" + line, path: "v.txt", sceneDirectory: directory)
        let error = try #require(evaluationError { try views[0].scene() })
        #expect(error.message == message)
        #expect(error.kind == .invalidInput)
    }

    @Test("The scene directory is make scenes' cache: under XDG_CACHE_HOME, else ~/.cache")
    func sceneDirectoryFollowsXDG() {
        #expect(EvaluationView.sceneDirectory(environment: ["XDG_CACHE_HOME": "/c", "HOME": "/h"]) == "/c/camerasun/scenes")
        #expect(EvaluationView.sceneDirectory(environment: ["XDG_CACHE_HOME": "", "HOME": "/h"]) == "/h/.cache/camerasun/scenes")
    }

    @Test("A list can come through a pipe, as from --views <(…)")
    func readsAPipe() throws {
        let directory = try sceneDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let pipe = Pipe()
        pipe.fileHandleForWriting.write(Data("city.hdr,yaw=90  0,0.5,1,0.5  -1  The car park.\n".utf8))
        try pipe.fileHandleForWriting.close()
        let views = try EvaluationView.load("/dev/fd/\(pipe.fileHandleForReading.fileDescriptor)", sceneDirectory: directory)
        #expect(views.map(\.spec) == ["\(directory)/city.hdr,yaw=90"])
        #expect(views.map(\.intent) == [-1])
    }

    @Test("A directory given as the list is an error naming it")
    func directoryAsList() throws {
        let directory = try sceneDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let error = evaluationError { try EvaluationView.load(directory) }
        #expect(error?.message == "the view list \(directory) is a directory — give the list's file, e.g. eval/hdr-views.txt")
        #expect(error?.kind == .invalidInput)
    }

    @Test("A missing list is an error naming it")
    func missingList() {
        let error = evaluationError { try EvaluationView.load("/nonexistent-dir/views.txt") }
        #expect(error?.message.contains("/nonexistent-dir/views.txt") == true)
        #expect(error?.kind == .unreadable)
    }
}
