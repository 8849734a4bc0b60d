import CameraCodecs
import CameraCore
@testable import CameraSunCLI
import Foundation
import Testing

/// A JPEG's Rec. 709 luma (0…255) averaged over square cells, for comparing two pictures of one
/// scene loosely: JPEG, noise and a frame's difference in time stay well below a cell's level.
struct LumaGrid {
    let columns: Int
    let rows: Int
    let cells: [Double]

    init(jpeg: Data, cell: Int) throws {
        let image = try JPEGDecoder().decode([UInt8](jpeg))
        let (columns, rows) = (image.width / cell, image.height / cell)
        let stride = image.planes[0].bytesPerRow
        var cells = [Double](repeating: 0, count: columns * rows)
        image.withUnsafeBytes(plane: 0) { bytes in
            for row in 0..<rows {
                for column in 0..<columns {
                    var sum = 0.0
                    for y in row * cell..<(row + 1) * cell {
                        for x in column * cell..<(column + 1) * cell {
                            let offset = y * stride + x * 4
                            sum += 0.0722 * Double(bytes[offset]) + 0.7152 * Double(bytes[offset + 1]) + 0.2126 * Double(bytes[offset + 2])
                        }
                    }
                    cells[row * columns + column] = sum / Double(cell * cell)
                }
            }
        }
        (self.columns, self.rows, self.cells) = (columns, rows, cells)
    }

    func cell(_ column: Int, _ row: Int, mirrored: Bool = false) -> Double {
        cells[row * columns + (mirrored ? columns - 1 - column : column)]
    }
}

/// `camerasun serve` with two simulated cameras at 320×180 and 15 fps: the back one on the
/// backlit portrait, the front one on the window interior, whose window on the right makes a
/// mirror image plain to see.
@Suite("camerasun serve with two cameras", .serialized)
struct TwoCameraServeTests {
    static let arguments = ["--source", "sim:backlit-portrait", "--source2", "sim:window-interior,position=front",
                            "--width", "320", "--height", "180", "--framerate", "15"]

    /// The mean difference of `picture`'s cells from `reference`'s (mirrored or not) where `include` holds.
    static func difference(_ picture: LumaGrid, _ reference: LumaGrid, mirrored: Bool, where include: (Int, Int) -> Bool) -> Double {
        var total = 0.0, count = 0
        for row in 0..<picture.rows {
            for column in 0..<picture.columns where include(column, row) {
                total += abs(picture.cell(column, row) - reference.cell(column, row, mirrored: mirrored))
                count += 1
            }
        }
        return total / Double(count)
    }

    /// A photo of the main camera from the library, as JPEG.
    static func photo(_ connection: TestConnection) async throws -> Data {
        let photo = try await connection.json("POST", "/api/photo", "{}")
        let id = try #require(photo.object["id"] as? String, "\(photo.object)")
        return try await connection.request("GET", "/library/\(id)").body
    }

    /// Waits until `/state` shows a converged exposure on a frame after `frame`.
    static func settled(_ connection: TestConnection, after frame: Double) async throws -> [String: Any] {
        let state = try await connection.state { state in
            (jsonNumber(state["frame"]) ?? 0) > frame + 3 && state["aeState"] as? String == "converged"
        }
        #expect(state["aeState"] as? String == "converged", "\(state)")
        return state
    }

    @Test("POST /api/camera switches and /state shows it; the front camera is mirrored in the preview, not in its photo; the other camera is the inset")
    func switchMirrorAndInset() async throws {
        let server = try await ServeProcess.start(Self.arguments)
        let connection = try server.connect()
        let first = try await Self.settled(connection, after: 0)
        #expect(first["device"] as? String == "sim:backlit-portrait")
        #expect(first["camera"] as? [String: String] == ["position": "back", "pip": "front"])
        let backView = try LumaGrid(jpeg: try await connection.request("GET", "/snapshot").body, cell: 10)

        let switched = try await connection.json("POST", "/api/camera", #"{"position":"front"}"#)
        #expect(switched.status == 200, "\(switched.object)")
        #expect(switched.object["device"] as? String == "sim:window-interior")
        #expect(switched.object["camera"] as? [String: String] == ["position": "front", "pip": "back"])
        _ = try await Self.settled(connection, after: jsonNumber(switched.object["frame"]) ?? 0)
        let frontView = try LumaGrid(jpeg: try await connection.request("GET", "/snapshot").body, cell: 10)
        let frontPhoto = try await Self.photo(connection)
        let state = try await connection.json("GET", "/state").object
        #expect(state["device"] as? String == "sim:window-interior")
        #expect(state["camera"] as? [String: String] == ["position": "front", "pip": "back"])

        // 160x90 in 5-pixel cells: the inset (a quarter of the width, 5 pixels in from the top
        // right) covers columns 23…30 and rows 1…4; below row 5 the picture is the main camera's.
        let frontAtCell = try LumaGrid(jpeg: frontPhoto, cell: 10)
        let mirrored = Self.difference(frontView, frontAtCell, mirrored: true) { _, row in row >= 6 }
        let straight = Self.difference(frontView, frontAtCell, mirrored: false) { _, row in row >= 6 }
        #expect(mirrored < 8 && straight > 3 * mirrored,
                "the preview should be the photo mirrored: \(mirrored) levels from it mirrored, \(straight) as it is")

        // Before the switch the inset showed the front camera, mirrored: the photo at a quarter
        // of its size (40-pixel cells) against the inset's 10-pixel cells.
        let frontAtQuarter = try LumaGrid(jpeg: frontPhoto, cell: 40)
        var insetMirrored = 0.0, insetStraight = 0.0
        for row in 0..<4 {
            for column in 0..<8 {
                let shown = backView.cell(23 + column, 1 + row)
                insetMirrored += abs(shown - frontAtQuarter.cell(column, row, mirrored: true)) / 32
                insetStraight += abs(shown - frontAtQuarter.cell(column, row)) / 32
            }
        }
        #expect(insetMirrored < 12 && insetStraight > 2 * insetMirrored,
                "the inset should be the front camera mirrored: \(insetMirrored) levels from it mirrored, \(insetStraight) as it is")

        let back = try await connection.json("POST", "/api/camera", #"{"position":"back"}"#)
        #expect(back.object["camera"] as? [String: String] == ["position": "back", "pip": "front"])
        let unknown = try await connection.json("POST", "/api/camera", #"{"position":"side"}"#)
        #expect(unknown.status == 400 && (unknown.object["error"] as? String)?.contains("\"side\" is not back or front") == true,
                "\(unknown.object)")
        #expect(try await server.interrupt() == 0)
    }
}
