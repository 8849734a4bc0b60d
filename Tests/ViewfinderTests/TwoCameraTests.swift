import CameraCapture
import CameraCore
import CameraTestSupport
import Foundation
import HTTPServer
import Testing
@testable import Viewfinder

@Suite("Two cameras in the viewfinder: /state names the main one, POST /api/camera switches")
struct TwoCameraTests {
    /// The back camera exposes 1/2000 s and the front one 1/250 s, so a frame or a photo tells
    /// which camera made it; both 64x48 bgra8, with three frames each to start with.
    static func start() async throws -> LiveViewfinder {
        let format = ScriptedDevice.standardFormats[1]
        let back = ScriptedDevice(uniqueID: "scripted:back", formats: [format], frameBudget: 3)
        let front = ScriptedDevice(uniqueID: "scripted:front", position: .front, formats: [format], frameBudget: 3)
        try back.configure { $0.exposureMode = .custom(duration: 1.0 / 2000, gain: 1) }
        try front.configure { $0.exposureMode = .custom(duration: 1.0 / 250, gain: 1) }
        return try await LiveViewfinder.start(device: back, second: front)
    }

    /// The `camera` object of a state.
    static func camera(_ state: [String: Any]) -> [String: String?] {
        ((state["camera"] as? [String: Any]) ?? [:]).mapValues { $0 as? String }
    }

    /// Lets `device` capture three more frames and waits until `/state` shows one of them (its exposure time).
    static func awaitFrames(of device: ScriptedDevice, exposure: Double, in live: LiveViewfinder) async throws {
        device.allowFrames(3)
        let shown = try await eventually {
            let state = try await live.json("GET", "/state").object
            return jsonNumber(state["exposureTime"]).map { abs($0 - exposure) < 1e-6 } ?? false
        }
        #expect(shown, "no frame of \(device.uniqueID) reached /state")
    }

    @Test("The switch answers the new state, the photos follow the main camera, and asking for the main one changes nothing")
    func switchesAndPhotosFollow() async throws {
        let live = try await Self.start()
        let back = live.device, front = try #require(live.second)
        try await Self.awaitFrames(of: back, exposure: 1.0 / 2000, in: live)
        let state = try await live.json("GET", "/state").object
        #expect(state["device"] as? String == "scripted:back")
        #expect(Self.camera(state) == ["position": "back", "pip": "front"])

        let switched = try await live.json("POST", "/api/camera", #"{"position":"front"}"#)
        #expect(switched.status == 200, "\(switched.error)")
        #expect(switched.object["device"] as? String == "scripted:front")
        #expect(Self.camera(switched.object) == ["position": "front", "pip": "back"])
        let configuration = await live.viewfinder.session.configuration
        #expect(configuration.inputs.count == 2)
        #expect(configuration.input(feeding: live.viewfinder.backend.cameras.preview)?.device === front)
        try await Self.awaitFrames(of: front, exposure: 1.0 / 250, in: live)
        let frontPhoto = try await live.json("POST", "/api/photo")
        #expect(frontPhoto.status == 200, "\(frontPhoto.error)")
        #expect(jsonNumber(frontPhoto.object["exposureTime"]).map { abs($0 - 1.0 / 250) < 1e-6 } == true, "\(frontPhoto.object)")

        let again = try await live.json("POST", "/api/camera", #"{"position":"front"}"#)
        #expect(again.status == 200 && again.object["device"] as? String == "scripted:front")
        let returned = try await live.json("POST", "/api/camera", #"{"position":"back"}"#)
        #expect(Self.camera(returned.object) == ["position": "back", "pip": "front"])
        try await Self.awaitFrames(of: back, exposure: 1.0 / 2000, in: live)
        let backPhoto = try await live.json("POST", "/api/photo")
        #expect(jsonNumber(backPhoto.object["exposureTime"]).map { abs($0 - 1.0 / 2000) < 1e-6 } == true, "\(backPhoto.object)")
        await live.stop()
    }

    @Test("A second camera facing the same way, or at another size, is refused naming both cameras")
    func unsuitedSecondCamera() {
        let back = ScriptedDevice(uniqueID: "scripted:back")
        #expect(throws: CaptureError.invalidConfiguration("the viewfinder switches between a back and a front camera, but scripted:back "
            + "faces back and scripted:other back — pair a back camera with a front one (a simulated second camera faces the front: "
            + "position=front)")) {
            try CameraViewfinder.checkSecondCamera(ScriptedDevice(uniqueID: "scripted:other"), main: back)
        }
        let small = ScriptedDevice(uniqueID: "scripted:small", position: .front, formats: [ScriptedDevice.standardFormats[1]])
        #expect(throws: CaptureError.invalidConfiguration("scripted:small runs at 64x48 and scripted:back at 32x24 — "
            + "two cameras need the same size (choose one both offer)")) {
            try CameraViewfinder.checkSecondCamera(small, main: back)
        }
    }

    @Test("An unknown position is a 400 naming it and the choices")
    func unknownPosition() async throws {
        let live = try await Self.start()
        let answer = try await live.json("POST", "/api/camera", #"{"position":"side"}"#)
        #expect(answer.status == 400)
        #expect(answer.error.contains("\"side\" is not back or front"), "\(answer.error)")
        await live.stop()
    }

    @Test("With one camera, /state shows no inset and the front camera is a 400 saying how to add one")
    func oneCamera() async throws {
        let live = try await LiveViewfinder.start()
        let state = try await live.json("GET", "/state").object
        let noInset: [String: String?] = ["position": "back", "pip": nil]
        #expect(Self.camera(state) == noInset)
        let answer = try await live.json("POST", "/api/camera", #"{"position":"front"}"#)
        #expect(answer.status == 400)
        #expect(answer.error.contains("there is no front camera — the viewfinder has scripted:0 facing back"), "\(answer.error)")
        #expect(answer.error.contains("--source2 SPEC,position=front"))
        await live.stop()
    }

    @Test("An interruption shows in /state while its camera is the main one, not while it is in the inset")
    func interruptionOfEachCamera() async throws {
        let live = try await Self.start()
        let front = try #require(live.second)
        var events = live.viewfinder.session.deviceEvents().makeAsyncIterator()
        front.setAvailability(.removed)
        while let event = await events.next(), event != SessionDeviceEvent(.interrupted(.deviceRemoved), device: "scripted:front") {}
        #expect(try await live.json("POST", "/api/camera", #"{"position":"front"}"#).status == 200)
        let interrupted = try await live.awaitState { $0["interruption"] as? String == "deviceRemoved" }
        #expect(interrupted["device"] as? String == "scripted:front")
        let back = try await live.json("POST", "/api/camera", #"{"position":"back"}"#)
        #expect(back.object["interruption"] is NSNull, "the back camera streams: \(back.object["interruption"] ?? "absent")")
        await live.stop()
    }

    @Test("A take keeps its camera: switching while recording is a 409, and works once the take stops")
    func noSwitchWhileRecording() async throws {
        let live = try await Self.start()
        let started = try await live.json("POST", "/api/record", #"{"action":"start"}"#)
        #expect(started.status == 200, "\(started.error)")
        let refused = try await live.json("POST", "/api/camera", #"{"position":"front"}"#)
        #expect(refused.status == 409)
        #expect(refused.error.contains("a take is recording from the back camera — stop it"), "\(refused.error)")
        live.device.allowFrames(3)
        _ = try await live.awaitState { state in
            let recording = state["recording"] as? [String: Any] ?? [:]
            return (jsonNumber(recording["frames"]) ?? 0) + (jsonNumber(recording["droppedFrames"]) ?? 0) >= 3
        }
        let stopped = try await live.json("POST", "/api/record", #"{"action":"stop"}"#)
        #expect(stopped.status == 200, "\(stopped.error)")
        let switched = try await live.json("POST", "/api/camera", #"{"position":"front"}"#)
        #expect(switched.status == 200 && switched.object["device"] as? String == "scripted:front")
        await live.stop()
    }
}
